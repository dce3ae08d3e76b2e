/*
 * The If request header (RFC 4918 §10.4): lists of conditions on lock tokens and entity tags,
 * each list optionally tagged with the resource it is about.
 *
 *   If: (<urn:uuid:…> ["etag"]) (Not <DAV:no-lock>)
 *   If: <http://host/dav/a/> (<urn:uuid:…>)
 *
 * The header is true when at least one list is true; a list is true when all its conditions
 * are. Separately, every lock token that appears anywhere in the header counts as submitted
 * (§10.4.1): a write to a locked resource needs its token submitted AND the header true, so
 * `(<wrong-token>) (Not <DAV:no-lock>)` passes as a condition but still meets the lock (423),
 * as litmus's cond_put_corrupt_token expects.
 */

export interface IfCondition {
  not: boolean;
  /** A state token (lock token), or null for an entity-tag condition. */
  token: string | null;
  /** An entity tag as written (`"abc"` or `W/"abc"`), or null. */
  etag: string | null;
}

export interface IfList {
  /** The tagged resource (a URL or path as written), or null for the request's own resource. */
  resource: string | null;
  conditions: IfCondition[];
}

/**
 * Parses an If header; null when it is malformed (answered 400). Commas between lists are
 * accepted: a client that sends two If headers gets them joined by Node with ", ".
 */
export function parseIfHeader(header: string): IfList[] | null {
  const lists: IfList[] = [];
  let tag: string | null = null;
  let i = 0;
  const n = header.length;
  const skip = () => {
    while (i < n && /[\s,]/.test(header[i]!)) i++;
  };
  const until = (close: string): string | null => {
    const end = header.indexOf(close, i);
    if (end < 0) return null;
    const s = header.slice(i, end);
    i = end + 1;
    return s;
  };
  skip();
  if (i >= n) return null;
  while (i < n) {
    const c = header[i]!;
    if (c === '<') {
      i++;
      const r = until('>');
      if (r === null || !r) return null;
      tag = r;
    } else if (c === '(') {
      i++;
      const conditions: IfCondition[] = [];
      for (;;) {
        skip();
        if (i >= n) return null;
        if (header[i] === ')') {
          i++;
          break;
        }
        let not = false;
        if (header.slice(i, i + 3).toLowerCase() === 'not' && /[\s<[]/.test(header[i + 3] ?? '')) {
          not = true;
          i += 3;
          skip();
        }
        if (header[i] === '<') {
          i++;
          const t = until('>');
          if (t === null || !t) return null;
          conditions.push({ not, token: t, etag: null });
        } else if (header[i] === '[') {
          i++;
          const e = until(']');
          if (e === null || !e) return null;
          conditions.push({ not, token: null, etag: e.trim() });
        } else {
          return null;
        }
      }
      if (!conditions.length) return null;
      lists.push({ resource: tag, conditions });
    } else {
      return null;
    }
    skip();
  }
  return lists.length ? lists : null;
}

/** Every lock token written in the header (Not or not, in lists true or false). */
export function submittedTokens(lists: IfList[] | null): Set<string> {
  const out = new Set<string>();
  for (const l of lists ?? []) for (const c of l.conditions) if (c.token) out.add(c.token);
  return out;
}

/** What a condition is checked against: one resource's current entity tag and lock tokens. */
export interface ResourceState {
  etag: string | null;
  /** Tokens of the unexpired locks that cover the resource (on it, or depth-infinity above it). */
  tokens: ReadonlySet<string>;
}

/** Compares entity tags the strong way (RFC 9110 §8.8.3.2): weak tags never match. */
function etagMatches(written: string, current: string | null): boolean {
  if (current === null || written.startsWith('W/') || current.startsWith('W/')) return false;
  return written === current;
}

/**
 * Whether the header holds: some list whose conditions are all true. `stateOf` answers the
 * state of a list's resource (its tag, or null for the request's own resource).
 */
export async function evaluateIf(
  lists: IfList[],
  stateOf: (resource: string | null) => Promise<ResourceState>,
): Promise<boolean> {
  for (const list of lists) {
    const state = await stateOf(list.resource);
    const holds = list.conditions.every((c) => {
      const v = c.token !== null ? state.tokens.has(c.token) : etagMatches(c.etag!, state.etag);
      return c.not ? !v : v;
    });
    if (holds) return true;
  }
  return false;
}
