import { z } from 'zod';
import { QueryBool } from '../contracts/common.js';

const FLAG_WORDS: Record<string, boolean> = { true: true, '1': true, false: false, '0': false };

/**
 * A flag as a tool argument: a JSON boolean, which is what clients and models send for a schema
 * that says `type: boolean`. The URL's words ("true", "0", …) still pass, for lenient clients
 * that send every argument as text; anything else is refused like a wrong type.
 */
export const McpFlag = z.preprocess((v) => (typeof v === 'string' && Object.hasOwn(FLAG_WORDS, v) ? FLAG_WORDS[v] : v), z.boolean());

const isFlag = (s: z.ZodType): boolean => {
  const inner = s instanceof z.ZodOptional ? (s.unwrap() as z.ZodType) : s;
  return inner === QueryBool || inner instanceof z.ZodBoolean;
};

/**
 * An endpoint's request schema with each top-level flag (a query's QueryBool, a body's boolean)
 * as an McpFlag, kept optional and described as it was; the rest of the schema, its strictness and
 * refinements included, is the endpoint's own.
 */
export function flagsAsBooleans(schema: z.ZodType): z.ZodType {
  if (!(schema instanceof z.ZodObject)) return schema;
  const flags: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (!isFlag(field)) continue;
    const flag = field instanceof z.ZodOptional ? McpFlag.optional() : McpFlag;
    flags[key] = field.description ? flag.describe(field.description) : flag;
  }
  return Object.keys(flags).length ? schema.safeExtend(flags) : schema;
}

type Json = { [k: string]: unknown };

/**
 * A JSON Schema with every `type: [a, b]` spelled `anyOf: [{type: a}, {type: b}]`. Both mean the
 * same in every draft, but clients that check tool schemas strictly warn on or refuse the array
 * (the MCP Inspector's strict mode warns on each); zod writes the array form for a
 * nullable field with no constraint of its own. The other keywords stay where they were: a
 * keyword of one type applies only to values of that type.
 */
export function withoutTypeArrays(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutTypeArrays);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = withoutTypeArrays(v);
  if (Array.isArray(out.type)) {
    const branches = out.type.map((type) => ({ type }));
    delete out.type;
    if (out.anyOf) out.allOf = [...((out.allOf as unknown[]) ?? []), { anyOf: branches }];
    else out.anyOf = branches;
  }
  return out;
}

/**
 * `schema` as the MCP SDK should publish it: the same validation, and a JSON Schema (made once,
 * when a client first lists the tools) without type arrays. The SDK converts a zod schema with
 * zod's own `toJSONSchema`, which asks a schema's `_zod.toJSONSchema` first.
 */
export function portable(schema: z.ZodType, io: 'input' | 'output'): z.ZodType {
  // Given its def, clone makes no parent link: zod would otherwise convert the original as well.
  const copy = schema.clone(schema._zod.def);
  let json: Json | undefined;
  copy._zod.toJSONSchema = () => {
    if (!json) {
      const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io }) as Json;
      json = withoutTypeArrays(rest) as Json;
    }
    // A copy each time: zod finishes the schema it is given in place.
    return structuredClone(json);
  };
  return copy;
}
