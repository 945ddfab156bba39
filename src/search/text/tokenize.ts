/**
 * Function words carry no topic: left out of sentence vectors entirely (frequency weighting alone
 * still leaves "my", "about" or "when" with too much say in a short query).
 */
export const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing done down during each either else ever every few for from further get gets got had has have having he ' +
    'her here hers herself him himself his how i if in into is it its itself just let me might mine more most much must my myself ' +
    'no nor not now of off on once one only or other ought our ours ourselves out over own per quite rather really same shall she ' +
    'should so some still such than that the their theirs them themselves then there these they this those through thus to too ' +
    'under until up upon us very was we were what whatever when where whether which while who whom whose why will with within ' +
    'without would yet you your yours yourself yourselves'
  ).split(' '),
);

const TOKEN = /[\p{L}\p{N}]+(?:['.-][\p{L}\p{N}]+)*/gu;
const DIGITS = /^[\p{N}.-]+$/u;

/**
 * Lowercased word tokens of a text, without stop words and bare numbers. A possessive or a
 * contraction keeps its stem ("sister's" → "sister", "didn't" → "didn"), matching how the model's
 * vocabulary was tokenized closely enough for pooling.
 */
export function wordTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().replace(/[’‘`]/g, "'").matchAll(TOKEN)) {
    let t = m[0];
    const apostrophe = t.indexOf("'");
    if (apostrophe > 0) t = t.slice(0, apostrophe);
    if (DIGITS.test(t) || STOP_WORDS.has(t)) continue;
    out.push(t);
  }
  return out;
}

/** The token without accents ("münchen" → "munchen"), for vocabularies that lack the accented form. */
export function stripAccents(t: string): string {
  return t.normalize('NFD').replace(/\p{M}+/gu, '');
}
