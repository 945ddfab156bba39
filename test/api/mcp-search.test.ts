import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../helpers/in-process.js';

const app = useApp();
let client: Client;

beforeAll(async () => {
  const traces = [
    {
      uid: 'mcp-a',
      type: 'observation',
      task_id: 'trip',
      content: 'Booked the ferry to Hvar',
      space: 'travel',
      fields: { speaker: 'Ana' },
      timestamp: '2031-05-01T08:00:00Z',
    },
    { uid: 'mcp-b', type: 'observation', task_id: 'trip', content: 'Ferry tickets refunded', space: 'travel', timestamp: '2031-06-01T08:00:00Z' },
    { uid: 'mcp-c', type: 'observation', task_id: 'trip', content: 'Ferry timetable for the default space', timestamp: '2031-05-01T08:00:00Z' },
  ];
  expect((await app.api('POST', '/memory/push', { body: { traces } })).status).toBe(201);
  client = new Client({ name: 'kairos-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${app.key}` } } }));
});
afterAll(async () => {
  await client?.close().catch(() => {});
});

describe('the MCP memory_search tool', () => {
  it('declares space, start_time, end_time and a limit of up to 200', async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === 'memory_search')!;
    const props = tool.inputSchema.properties as Record<string, { maximum?: number }>;
    expect(Object.keys(props)).toEqual(expect.arrayContaining(['space', 'start_time', 'end_time', 'limit']));
    expect(props.limit!.maximum).toBe(200);
    expect(JSON.stringify(tool)).not.toContain('prefixItems');
  });

  it('answers within a space and a time range, with the content, fields and highlights', async () => {
    const r = await client.callTool({
      name: 'memory_search',
      arguments: { query: 'ferry', mode: 'keyword', space: 'travel', end_time: '2031-05-15T00:00:00Z' },
    });
    expect(r.isError, JSON.stringify(r)).toBeFalsy();
    const body = JSON.parse((r.content as { text: string }[])[0]!.text);
    expect(body.results).toHaveLength(1);
    expect(body.results[0]).toMatchObject({
      uid: 'mcp-a',
      space: 'travel',
      content: 'Booked the ferry to Hvar',
      fields: { speaker: 'Ana' },
      highlights: [[11, 16]],
    });
  });
});
