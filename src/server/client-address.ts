import { normalizeIP } from '@fastify/rate-limit';

/**
 * The address a per-address throttle counts a client against (sign-in failures, share-code
 * guesses, the anonymous flood ceiling). `ip` is the request's `req.ip`: the connection's peer,
 * or, when that peer is a proxy listed in TRUST_PROXY, the client it forwarded for.
 *
 * IPv4-mapped IPv6 (::ffff:10.0.0.5) counts as its IPv4 address, and an IPv6 address as its
 * /64: one household or device gets a whole /64, so counting single IPv6 addresses would give
 * a guesser 2^64 fresh counters. The same rule as the rate limiter's, so every throttle agrees.
 */
export function clientAddress(ip: string): string {
  return normalizeIP(ip);
}
