import { SaxesParser } from 'saxes';

/*
 * The XML of WebDAV bodies (RFC 4918 §14): a namespace-aware parse of a request body into a
 * small element tree, and the writing of answers. Request bodies are small (PROPFIND,
 * PROPPATCH, LOCK); nothing here streams. A DOCTYPE is refused outright, so no entity, internal
 * or external, is ever expanded (no XXE, no billion laughs).
 */

export const DAV_NS = 'DAV:';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** Nesting deeper than this is refused: no client property needs it, and recursion stays bounded. */
const MAX_DEPTH = 64;

export interface XmlAttr {
  ns: string;
  local: string;
  value: string;
}

export interface XmlElement {
  /** The namespace URI, '' for none. */
  ns: string;
  local: string;
  attrs: XmlAttr[];
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

/** A body that is not well-formed XML, or uses what we refuse (a DOCTYPE, deep nesting). */
export class XmlError extends Error {}

/** Parses a whole XML document; throws XmlError when it is not well-formed. */
export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let failure: Error | null = null;
  parser.on('error', (err) => {
    failure ??= err;
  });
  parser.on('doctype', () => {
    failure ??= new XmlError('DOCTYPE is not accepted');
  });
  parser.on('opentag', (tag) => {
    if (stack.length >= MAX_DEPTH) {
      failure ??= new XmlError('nesting too deep');
      return;
    }
    const attrs: XmlAttr[] = [];
    for (const a of Object.values(tag.attributes)) {
      // Namespace declarations are not attributes of the element; the writer makes its own.
      if (a.uri === XMLNS_NS || a.name === 'xmlns') continue;
      attrs.push({ ns: a.uri ?? '', local: a.local, value: a.value });
    }
    const el: XmlElement = { ns: tag.uri ?? '', local: tag.local, attrs, children: [] };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const onText = (t: string) => {
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(t);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  try {
    parser.write(text).close();
  } catch (err) {
    failure ??= err as Error;
  }
  if (failure) throw failure instanceof XmlError ? failure : new XmlError(String(failure));
  if (!root) throw new XmlError('no root element');
  return root;
}

/** The element children of an element (text and whitespace left out). */
export function elements(el: XmlElement): XmlElement[] {
  return el.children.filter((c): c is XmlElement => typeof c !== 'string');
}

/** True when `el` is {ns}local. */
export function is(el: XmlElement, ns: string, local: string): boolean {
  return el.ns === ns && el.local === local;
}

/** The first child element {ns}local, if any. */
export function child(el: XmlElement, ns: string, local: string): XmlElement | undefined {
  return elements(el).find((c) => is(c, ns, local));
}

/**
 * Characters XML 1.0 cannot carry at all (C0 controls but tab, LF, CR; lone surrogates; U+FFFE,
 * U+FFFF). Names never hold them (the drive refuses control characters), but a row made some
 * other way must not break a whole listing, so they are dropped from what we write.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Anything esc() would change: most names and values have none, and skip both replacements. */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[&<>"\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/;

/** Text escaped for element content and attribute values. */
export function esc(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(NOT_XML, '').replace(/[&<>"]/g, (c) => {
    if (c === '&') return '&amp;';
    if (c === '<') return '&lt;';
    if (c === '>') return '&gt;';
    return '&quot;';
  });
}

/**
 * An element as a self-contained XML fragment: every namespace it or its descendants use is
 * declared on it with a prefix of our own (`x0`, `x1`…), and an unprefixed name always means
 * no namespace (no default namespace is ever declared), so it can be placed inside any answer
 * and read back exactly. `xml:lang` and other attributes keep their namespaces.
 */
export function serializeElement(el: XmlElement): string {
  let counter = 0;
  const write = (e: XmlElement, scope: Map<string, string>): string => {
    const local = new Map(scope);
    const decls: string[] = [];
    const prefixOf = (ns: string) => {
      if (ns === XML_NS) return 'xml';
      let p = local.get(ns);
      if (!p) {
        p = `x${counter++}`;
        local.set(ns, p);
        decls.push(` xmlns:${p}="${esc(ns)}"`);
      }
      return p;
    };
    const name = e.ns ? `${prefixOf(e.ns)}:${e.local}` : e.local;
    const attrs = e.attrs
      .map((a) => ` ${a.ns ? `${prefixOf(a.ns)}:${a.local}` : a.local}="${esc(a.value)}"`)
      .join('');
    const inner = e.children.map((c) => (typeof c === 'string' ? esc(c) : write(c, local))).join('');
    const open = `<${name}${decls.join('')}${attrs}`;
    return inner ? `${open}>${inner}</${name}>` : `${open}/>`;
  };
  return write(el, new Map());
}

/** The children of an element written as one fragment (each child element self-contained). */
export function serializeChildren(el: XmlElement): string {
  return el.children.map((c) => (typeof c === 'string' ? esc(c) : serializeElement(c))).join('');
}

export const XML_DECL = '<?xml version="1.0" encoding="utf-8"?>\n';
