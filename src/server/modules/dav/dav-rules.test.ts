import { describe, expect, it } from 'vitest';
import { evaluateIf, parseIfHeader, submittedTokens } from './if-header';
import { covers, timeoutOf } from './locks';
import { ancestorsOf, hrefOf, lockPathOf, parseDavPath } from './paths';
import { parsePropfind, parseProppatch, responseOf } from './props';
import { XmlError, esc, parseXml, serializeElement } from './xml';

/** The pure rules of the WebDAV module: If headers, XML, addresses, timeouts, properties. */

const T1 = 'urn:uuid:11111111-1111-1111-1111-111111111111';
const T2 = 'urn:uuid:22222222-2222-2222-2222-222222222222';

describe('If header (RFC 4918 §10.4)', () => {
  it('parses untagged and tagged lists, Not, tokens and entity tags', () => {
    expect(parseIfHeader(`(<${T1}> ["abc"]) (Not <DAV:no-lock>)`)).toEqual([
      {
        resource: null,
        conditions: [
          { not: false, token: T1, etag: null },
          { not: false, token: null, etag: '"abc"' },
        ],
      },
      { resource: null, conditions: [{ not: true, token: 'DAV:no-lock', etag: null }] },
    ]);
    expect(parseIfHeader(`<http://h/dav/a/> (<${T1}>) <http://h/dav/b> (["x"])`)).toEqual([
      { resource: 'http://h/dav/a/', conditions: [{ not: false, token: T1, etag: null }] },
      { resource: 'http://h/dav/b', conditions: [{ not: false, token: null, etag: '"x"' }] },
    ]);
    // Two If headers arrive joined by ", " (Node): still read.
    expect(parseIfHeader(`(<${T1}>), (<${T2}>)`)?.length).toBe(2);
  });

  it('refuses malformed headers', () => {
    for (const bad of [
      '',
      'garbage',
      '(',
      '()',
      `(<${T1}>`,
      '(Nope <x>)',
      '<http://h/> ',
      '([unterminated)',
    ]) {
      expect(parseIfHeader(bad), bad).toBeNull();
    }
  });

  it('counts every written token as submitted, whatever its list says', () => {
    expect([...submittedTokens(parseIfHeader(`(<${T1}x>) (Not <DAV:no-lock>)`))]).toEqual([
      `${T1}x`,
      'DAV:no-lock',
    ]);
    expect(submittedTokens(null).size).toBe(0);
  });

  it('holds when one list holds; Not negates; entity tags compare strongly', async () => {
    const state = async () => ({ etag: '"e1"', tokens: new Set([T1]) });
    const holds = (h: string) => evaluateIf(parseIfHeader(h)!, state);
    expect(await holds(`(<${T1}> ["e1"])`)).toBe(true);
    expect(await holds(`(<DAV:no-lock> ["e1"])`)).toBe(false);
    expect(await holds(`(<${T1}x>) (Not <DAV:no-lock>)`)).toBe(true);
    expect(await holds(`(<${T1}> ["e2"]) (Not <DAV:no-lock> ["e2"])`)).toBe(false);
    expect(await holds(`(<${T1}> [W/"e1"])`)).toBe(false);
    expect(await holds(`(Not ["e1"])`)).toBe(false);
  });

  it('evaluates a tagged list against its own resource', async () => {
    const seen: (string | null)[] = [];
    const ok = await evaluateIf(parseIfHeader(`<http://h/dav/coll/> (<${T1}>)`)!, async (r) => {
      seen.push(r);
      return { etag: null, tokens: new Set(r === 'http://h/dav/coll/' ? [T1] : []) };
    });
    expect(ok).toBe(true);
    expect(seen).toEqual(['http://h/dav/coll/']);
  });
});

describe('WebDAV addresses', () => {
  it('maps /dav/ paths to areas and decoded names', () => {
    expect(parseDavPath('/dav')).toEqual({ area: null, segs: [], slash: true });
    expect(parseDavPath('/dav/')).toEqual({ area: null, segs: [], slash: true });
    expect(parseDavPath('/dav/%E6%88%91%E7%9A%84%E7%BD%91%E7%9B%98/a/%E6%96%87%E4%BB%B6.txt')).toEqual({
      area: 'personal',
      segs: ['a', '文件.txt'],
      slash: false,
    });
    expect(parseDavPath(`/dav/${encodeURIComponent('高清图片')}/x/`)).toEqual({
      area: 'hd',
      segs: ['x'],
      slash: true,
    });
    expect(parseDavPath('/dav/nope/')).toBe('unknown');
    expect(parseDavPath('/wangpan/x')).toBe('outside');
    expect(parseDavPath('/davx')).toBe('outside');
  });

  it('refuses traversal, encoded separators, NUL, bad encoding and fragments', () => {
    const personal = encodeURIComponent('我的网盘');
    for (const p of ['%2e%2e', '..', '.', 'a%2Fb', 'a%5C%00', '%E6%88', 'x#y']) {
      const r = parseDavPath(`/dav/${personal}/${p}`);
      expect(typeof r === 'object' && 'bad' in r, p).toBe(true);
    }
  });

  it('writes hrefs that read back to the same place', () => {
    const href = hrefOf('personal', ['报告 2026', 'a#b?.txt'], false);
    expect(href).toBe(
      `/dav/${encodeURIComponent('我的网盘')}/${encodeURIComponent('报告 2026')}/a%23b%3F.txt`,
    );
    expect(parseDavPath(href)).toEqual({ area: 'personal', segs: ['报告 2026', 'a#b?.txt'], slash: false });
    expect(hrefOf('res', ['d'], true).endsWith('/d/')).toBe(true);
    expect(hrefOf(null, [], true)).toBe('/dav/');
  });

  it('names lock paths and their ancestors', () => {
    expect(lockPathOf([], true)).toBe('/');
    expect(lockPathOf(['a', 'b'], true)).toBe('/a/b/');
    expect(lockPathOf(['a', 'b.txt'], false)).toBe('/a/b.txt');
    expect(ancestorsOf('/a/b/c.txt')).toEqual(['/', '/a/', '/a/b/']);
    expect(ancestorsOf('/a/b/')).toEqual(['/', '/a/']);
    expect(ancestorsOf('/')).toEqual([]);
  });
});

describe('locks', () => {
  it('cover their own path, and with depth infinity what is below a collection', () => {
    expect(covers({ path: '/a/', depth: -1 }, '/a/b/c.txt')).toBe(true);
    expect(covers({ path: '/a/', depth: 0 }, '/a/b.txt')).toBe(false);
    expect(covers({ path: '/a/', depth: 0 }, '/a/')).toBe(true);
    expect(covers({ path: '/a.txt', depth: -1 }, '/a.txt/b')).toBe(false);
    expect(covers({ path: '/ab/', depth: -1 }, '/a/')).toBe(false);
  });

  it('take the timeout asked for, up to a day; Infinite or none is an hour', () => {
    expect(timeoutOf('Second-600')).toBe(600);
    expect(timeoutOf('Infinite, Second-4100000000')).toBe(3600);
    expect(timeoutOf('Second-99999999')).toBe(86_400);
    expect(timeoutOf(undefined)).toBe(3600);
    expect(timeoutOf('nonsense')).toBe(3600);
  });
});

describe('XML', () => {
  it('parses namespaces, xml:lang, text and CDATA', () => {
    const el = parseXml(
      '<?xml version="1.0"?><D:a xmlns:D="DAV:" xmlns="urn:x"><b xml:lang="zh">文<![CDATA[<字>]]></b><c xmlns=""/></D:a>',
    );
    expect(el).toMatchObject({ ns: 'DAV:', local: 'a' });
    const [b, c] = el.children as [ReturnType<typeof parseXml>, ReturnType<typeof parseXml>];
    expect(b).toMatchObject({
      ns: 'urn:x',
      local: 'b',
      attrs: [{ ns: 'http://www.w3.org/XML/1998/namespace', local: 'lang', value: 'zh' }],
    });
    expect(b.children).toEqual(['文', '<字>']);
    expect(c).toMatchObject({ ns: '', local: 'c' });
  });

  it('refuses what is not well-formed, undeclared prefixes, empty prefix bindings and DOCTYPEs', () => {
    for (const bad of [
      '<foo>',
      '<a:b/>',
      '<D:propfind xmlns:D="DAV:"><D:prop><bar:foo xmlns:bar=""/></D:prop></D:propfind>',
      '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>',
      '<a>&custom;</a>',
      `${'<a>'.repeat(70)}${'</a>'.repeat(70)}`,
    ]) {
      expect(() => parseXml(bad), bad).toThrow(XmlError);
    }
  });

  it('writes an element self-contained, so it reads back the same', () => {
    const el = parseXml(
      '<t:v xmlns:t="urn:t" xml:lang="en"><foo xmlns="http://bar"/>x &amp; y<n xmlns="">1</n></t:v>',
    );
    const text = serializeElement(el);
    expect(parseXml(text)).toEqual(el);
    expect(text).not.toContain('xmlns=');
  });

  it('escapes text and drops characters XML cannot carry', () => {
    expect(esc('a<b>&"c"\u0001')).toBe('a&lt;b&gt;&amp;&quot;c&quot;');
    expect(esc('𐀀')).toBe('𐀀');
  });
});

describe('PROPFIND and PROPPATCH bodies', () => {
  it('reads allprop, propname, prop and an empty body', () => {
    expect(parsePropfind('')).toEqual({ kind: 'all', include: [] });
    expect(parsePropfind('<propfind xmlns="DAV:"><foobar/><allprop/></propfind>')).toEqual({
      kind: 'all',
      include: [],
    });
    expect(parsePropfind('<D:propfind xmlns:D="DAV:"><D:propname/></D:propfind>')).toEqual({ kind: 'names' });
    expect(
      parsePropfind('<propfind xmlns="DAV:"><prop><getetag/><q:x xmlns:q="urn:q"/></prop></propfind>'),
    ).toEqual({
      kind: 'some',
      names: [
        { ns: 'DAV:', local: 'getetag' },
        { ns: 'urn:q', local: 'x' },
      ],
    });
    expect(() => parsePropfind('<foo>')).toThrow();
    expect(() => parsePropfind('<other xmlns="DAV:"/>')).toThrow();
  });

  it('reads PROPPATCH instructions in document order', () => {
    const ops = parseProppatch(
      '<propertyupdate xmlns="DAV:"><remove><prop><r xmlns="urn:n"/></prop></remove><set><prop><r xmlns="urn:n">x</r></prop></set></propertyupdate>',
    );
    expect(ops.map((o) => o.op)).toEqual(['remove', 'set']);
    expect(() => parseProppatch('<propertyupdate xmlns="DAV:"/>')).toThrow();
  });

  it('answers asked-for properties, 404 for the missing ones, quotas only when asked', () => {
    const desc = {
      href: '/dav/x/',
      collection: true,
      displayName: '<x>',
      size: null,
      mtime: 0,
      etag: null,
      contentType: null,
      locks: [],
      areaKind: 'personal' as const,
      quota: { used: 5, available: 10 },
      dead: [{ user_file_id: 1, ns: 'urn:n', name: 'p', value: '<x0:p xmlns:x0="urn:n">v</x0:p>' }],
    };
    const all = responseOf(desc, { kind: 'all', include: [] });
    expect(all).toContain('<D:displayname>&lt;x&gt;</D:displayname>');
    expect(all).toContain('<x0:p xmlns:x0="urn:n">v</x0:p>');
    expect(all).toContain('<D:quota-used-bytes>5</D:quota-used-bytes>');
    const some = responseOf(desc, {
      kind: 'some',
      names: [
        { ns: 'DAV:', local: 'quota-available-bytes' },
        { ns: 'DAV:', local: 'getcontentlength' },
        { ns: '', local: 'nons' },
      ],
    });
    expect(some).toContain('<D:quota-available-bytes>10</D:quota-available-bytes>');
    expect(some).toMatch(/<D:getcontentlength\/><nons\/><\/D:prop><D:status>HTTP\/1.1 404 Not Found/);
  });
});
