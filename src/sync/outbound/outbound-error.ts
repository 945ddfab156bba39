/**
 * Why an outbound request failed, in the client's words only. `unreachable` covers every refused
 * address and every network failure alike (DNS, refused or reset connection, TLS): one code and
 * one text, so that an error never tells an open port from a closed one. Nothing of the server's
 * answer (its body, its reason phrase) is kept.
 */
export class OutboundError extends Error {
  constructor(
    readonly code: 'unreachable' | 'timeout' | 'too_large' | 'redirects',
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export const unreachable = (host: string) =>
  new OutboundError(
    'unreachable',
    `${host} could not be reached (a network failure, or an address kairos does not connect to: loopback, private and link-local addresses need "outbound.allow_hosts" in config.json)`,
  );
