import { describe, expect, it } from 'vitest';
import { OpenAiProvider } from '../../../../../src/domain/planner/providers/openai-provider.js';
import { ProviderFailure } from '../../../../../src/domain/planner/providers/provider.js';
import type { PlannerInput } from '../../../../../src/domain/planner/types.js';
import { defaultSettings } from '../../../../../src/domain/tempo/profile.js';

const NOW = new Date('2026-03-02T08:00:00Z'); // Monday 09:00 in Berlin

function input(extra: Partial<PlannerInput> = {}): PlannerInput {
  return {
    prompt: 'Dentist next Tuesday at 3pm for 45 minutes',
    now: NOW,
    timezone: 'Europe/Berlin',
    profile: defaultSettings(),
    calendar: [{ uid: 'ev_sync', title: 'Team sync', start: Date.parse('2026-03-03T10:00:00Z'), end: Date.parse('2026-03-03T10:30:00Z') }],
    ...extra,
  };
}

const action = (over: Record<string, unknown> = {}) => ({
  kind: 'add_event',
  title: 'Dentist',
  scheduled_for: '2026-03-10T15:00:00+01:00',
  duration_minutes: 45,
  tempo_tag: null,
  event_uid: null,
  content: null,
  reasoning: 'explicit time',
  confidence: 0.9,
  ...over,
});

/** A fetch that answers like an OpenAI-compatible server, recording what it was sent. */
function server(answer: (body: any) => { status?: number; json?: unknown; text?: string; hang?: boolean }) {
  const calls: { url: string; body: any; headers: Record<string, string> }[] = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body));
    calls.push({ url, body, headers: init.headers as Record<string, string> });
    const a = answer(body);
    if (a.hang) {
      return new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)));
    }
    return new Response(a.text ?? JSON.stringify(a.json), { status: a.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return { fetchFn, calls };
}

const completion = (content: unknown, extra: Record<string, unknown> = {}) => ({
  json: {
    choices: [{ message: { role: 'assistant', content: typeof content === 'string' ? content : JSON.stringify(content), ...extra }, finish_reason: 'stop' }],
  },
});

const provider = (fetchFn: typeof fetch, baseUrl = 'http://127.0.0.1:9/v1', timeoutMs = 2000) =>
  new OpenAiProvider({ baseUrl, model: 'tiny', apiKey: 'sk-test', timeoutMs, fetch: fetchFn });

async function failure(p: Promise<unknown>): Promise<ProviderFailure> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ProviderFailure);
  return e as ProviderFailure;
}

describe('the OpenAI-compatible provider', () => {
  it('asks /v1/chat/completions for JSON-schema output and returns validated actions', async () => {
    const s = server(() =>
      completion({
        reply: 'Booked.',
        actions: [
          action(),
          action({ kind: 'reschedule_event', title: 'Team sync', event_uid: 'ev_sync', scheduled_for: '2026-03-03T12:00:00+01:00', duration_minutes: 30 }),
        ],
      }),
    );
    const out = await provider(s.fetchFn).plan(input(), { memory: ['likes mornings'] });
    expect(s.calls).toHaveLength(1);
    expect(s.calls[0]!.url).toBe('http://127.0.0.1:9/v1/chat/completions');
    expect(s.calls[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(s.calls[0]!.body).toMatchObject({
      model: 'tiny',
      temperature: 0,
      response_format: { type: 'json_schema', json_schema: { name: 'kairos_plan', strict: true } },
    });
    const user = JSON.parse(s.calls[0]!.body.messages[1].content);
    expect(user).toMatchObject({
      request: 'Dentist next Tuesday at 3pm for 45 minutes',
      now_local: '2026-03-02T09:00:00+01:00',
      timezone: 'Europe/Berlin',
      memory: ['likes mornings'],
    });
    expect(user.calendar).toEqual([{ uid: 'ev_sync', title: 'Team sync', start: '2026-03-03T11:00:00+01:00', end: '2026-03-03T11:30:00+01:00' }]);
    expect(out.reply).toBe('Booked.');
    expect(out.actions).toEqual([
      {
        kind: 'add_event',
        task_id: 'dentist',
        title: 'Dentist',
        scheduled_for: '2026-03-10T14:00:00.000Z',
        duration_minutes: 45,
        estimate_minutes: 45,
        reasoning: 'explicit time',
        confidence: 0.9,
      },
      expect.objectContaining({ kind: 'reschedule_event', event_uid: 'ev_sync', scheduled_for: '2026-03-03T11:00:00.000Z' }),
    ]);
  });

  it('adds /v1 to a bare base URL', async () => {
    const s = server(() => completion({ reply: '', actions: [] }));
    await provider(s.fetchFn, 'http://localhost:11434').plan(input(), {});
    expect(s.calls[0]!.url).toBe('http://localhost:11434/v1/chat/completions');
  });

  it('a refusal is a failure', async () => {
    const s = server(() => completion(null, { refusal: 'I cannot help with that.' }));
    expect((await failure(provider(s.fetchFn).plan(input(), {}))).reason).toBe('refusal');
  });

  it.each([
    ['not JSON', { text: 'hello' }],
    ['content not JSON', completion('Sure! Tomorrow at 3.')],
    ['wrong shape', completion({ plan: [] })],
    ['a time without an offset', completion({ reply: '', actions: [action({ scheduled_for: '2026-03-10 15:00' })] })],
    ['a time in the past', completion({ reply: '', actions: [action({ scheduled_for: '2026-03-01T15:00:00+01:00' })] })],
    ['an event that does not exist', completion({ reply: '', actions: [action({ kind: 'reschedule_event', event_uid: 'ev_nope' })] })],
    ['a zero-length event', completion({ reply: '', actions: [action({ duration_minutes: 0 })] })],
    ['a bad tempo tag', completion({ reply: '', actions: [action({ tempo_tag: 'morning!!' })] })],
  ])('invalid output (%s) is a failure', async (_why, answer) => {
    const s = server(() => answer);
    expect((await failure(provider(s.fetchFn).plan(input(), {}))).reason).toBe('invalid_output');
  });

  it("a plan that breaks the user's constraints is invalid output", async () => {
    const s = server(() => completion({ reply: '', actions: [action({ scheduled_for: '2026-03-10T12:30:00+01:00' })] }));
    const profile = { ...defaultSettings(), blocked: [{ start: '12:00', end: '13:00', label: 'lunch' }] };
    const e = await failure(provider(s.fetchFn).plan(input({ profile }), {}));
    expect(e.reason).toBe('invalid_output');
    expect(e.message).toContain('blocked (lunch)');
  });

  it('a server error and a timeout are failures', async () => {
    expect((await failure(provider(server(() => ({ status: 500, json: { error: 'boom' } })).fetchFn).plan(input(), {}))).reason).toBe('http_error');
    const started = Date.now();
    expect((await failure(provider(server(() => ({ hang: true })).fetchFn, undefined, 100).plan(input(), {}))).reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('an unreachable server is a failure', async () => {
    const e = await failure(new OpenAiProvider({ baseUrl: 'http://127.0.0.1:1/v1', model: 'tiny', timeoutMs: 2000 }).plan(input(), {}));
    expect(e.reason).toBe('unreachable');
  });
});
