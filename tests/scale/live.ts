/**
 * Opens the notice stream as a browser would (the token cookie) and collects its events.
 * `headers` may pin it to one instance behind nginx (tests/scale/nginx.ts).
 */
export async function stream(url: string, token: string, headers: Record<string, string> = {}) {
  const ctrl = new AbortController();
  const res = await fetch(`${url}/singleMuseum/notice/stream`, {
    headers: { ...headers, cookie: `token=${token}` },
    signal: ctrl.signal,
  });
  const events: { event: string; data: string; at: number }[] = [];
  const reader = res.body!.getReader();
  const done = (async () => {
    const dec = new TextDecoder();
    let buf = '';
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) break;
        buf += dec.decode(value, { stream: true });
        let cut;
        while ((cut = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          if (event) events.push({ event, data: /^data: (.*)$/m.exec(block)?.[1] ?? '', at: Date.now() });
        }
      }
    } catch {
      /* aborted */
    }
  })();
  const until = async (pred: () => boolean, ms: number) => {
    const t0 = Date.now();
    while (!pred()) {
      if (Date.now() - t0 > ms)
        throw new Error(`timed out after ${ms} ms; events: ${JSON.stringify(events)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { headers: res.headers, events, until, close: () => (ctrl.abort(), done) };
}
