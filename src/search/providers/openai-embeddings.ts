import { normalize } from '../models/builtin-embedder.js';

export interface OpenAIEmbeddingsOptions {
  /** e.g. `http://127.0.0.1:11434/v1` (Ollama); `/embeddings` is appended. */
  baseUrl: string;
  model?: string;
  apiKey?: string;
  timeoutMs?: number;
}

/** Texts sent per request: servers cap batch sizes, and one failure then costs less. */
export const PROVIDER_BATCH = 64;

/**
 * An OpenAI-compatible embeddings endpoint (`POST {base}/embeddings {model, input: [...]}` →
 * `{data: [{index, embedding}]}`): OpenAI, Ollama, llama.cpp server, vLLM, LM Studio. Every
 * failure, including a malformed answer, is one short Error whose message is safe to show.
 */
export class OpenAIEmbeddings {
  readonly model: string;
  private readonly url: string;

  constructor(private readonly opts: OpenAIEmbeddingsOptions) {
    this.url = `${opts.baseUrl.replace(/\/+$/, '')}/embeddings`;
    this.model = opts.model ?? 'nomic-embed-text';
  }

  /** Unit vectors of the texts, in order. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
        body: JSON.stringify({ model: this.model, input: texts }),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
      });
    } catch (e) {
      const err = e as Error & { cause?: { code?: string; message?: string } };
      const why = err.name === 'TimeoutError' ? `no answer within ${this.opts.timeoutMs ?? 10_000} ms` : (err.cause?.code ?? err.cause?.message ?? err.message);
      throw new Error(`embeddings provider ${this.url} unreachable: ${why}`);
    }
    if (!res.ok) {
      const body = (await res.text().catch(() => '')).replace(/\s+/g, ' ').slice(0, 200);
      throw new Error(`embeddings provider ${this.url} answered ${res.status}${body ? `: ${body}` : ''}`);
    }
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      throw new Error(`embeddings provider ${this.url} answered with something other than JSON`);
    }
    const data = (json as { data?: unknown }).data;
    if (!Array.isArray(data) || data.length !== texts.length) throw new Error(`embeddings provider ${this.url} answered without one embedding per input`);
    const out: (Float32Array | undefined)[] = new Array(texts.length);
    let dims: number | undefined;
    for (const [i, item] of data.entries()) {
      const { index, embedding } = item as { index?: unknown; embedding?: unknown };
      const at = typeof index === 'number' ? index : i;
      if (!Array.isArray(embedding) || !embedding.length || !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new Error(`embeddings provider ${this.url} answered a malformed embedding`);
      }
      if (dims !== undefined && embedding.length !== dims) throw new Error(`embeddings provider ${this.url} answered embeddings of different sizes`);
      dims = embedding.length;
      const v = normalize(Float32Array.from(embedding as number[]));
      // A zero vector says nothing; keep its place with zeros so indexes stay aligned.
      if (at < 0 || at >= texts.length) throw new Error(`embeddings provider ${this.url} answered an out-of-range index`);
      out[at] = v ?? new Float32Array(embedding.length);
    }
    if (out.some((v) => !v)) throw new Error(`embeddings provider ${this.url} answered without one embedding per input`);
    return out as Float32Array[];
  }
}
