// @ts-check
/**
 * Shows the launch snapshot before the app's code has run (src/app/lib/launch-snapshot.ts says
 * what it is and why). A classic script, loaded synchronously right after #root in index.html,
 * so that the first paint already has the last screen: a module script would wait for the whole
 * app's code. Plain JavaScript because it is served as is (public/), kept small, and it never
 * throws: whatever goes wrong, the loading screen shows as before.
 */
(function () {
  'use strict';
  // SNAPSHOT_KEYS, src/app/lib/session-keys.ts: one per page that keeps its screen.
  var KEYS = ['gwy.launchSnapshot.drive', 'gwy.launchSnapshot.workbench'];
  var LAST_KEY = 'gwy.lastSession'; // LAST_KEY, the same file
  var MAX_AGE_MS = 7 * 24 * 3600 * 1000; // SNAPSHOT_MAX_AGE_MS

  /**
   * The stored snapshot that may be shown here and now, of those kept; otherwise null.
   * @param {{ raws: (string | null)[], lastSession: string | null, cookie: string,
   *   origin: string, path: string, sheets: string[], now: number }} env
   */
  function choose(env) {
    for (var i = 0; i < env.raws.length; i++) {
      var snap = chooseOne(env.raws[i], env);
      if (snap) return snap;
    }
    return null;
  }

  /**
   * One stored snapshot, when it may be shown here and now; otherwise null.
   * @param {string | null} raw
   * @param {{ lastSession: string | null, cookie: string, origin: string, path: string,
   *   sheets: string[], now: number }} env
   */
  function chooseOne(raw, env) {
    if (!raw || !/(?:^|;\s*)token=[^;]+/.test(env.cookie)) return null;
    var snap, last;
    try {
      snap = JSON.parse(raw);
      last = JSON.parse(env.lastSession || 'null');
    } catch {
      return null;
    }
    if (!snap || snap.v !== 1 || typeof snap.html !== 'string' || !last || !last.user) return null;
    // The app's start (the home-screen icon) leads to the person's first page (router.tsx).
    var path = env.path === '/' && last.roleFunction ? last.roleFunction.firstUrl : env.path;
    if (snap.userId !== last.user.userId || snap.path !== path) return null;
    var age = env.now - snap.savedAt;
    if (!(age >= 0 && age <= MAX_AGE_MS && env.now < snap.expires)) return null;
    // The same version: every style sheet of this document was there when it was taken (the
    // build names them by their content). The snapshot's others are its page's own.
    if (!Array.isArray(snap.sheets) || snap.sheets.length === 0) return null;
    for (var i = 0; i < env.sheets.length; i++) if (snap.sheets.indexOf(env.sheets[i]) < 0) return null;
    // Only this app's own style sheets are loaded for a snapshot.
    for (var j = 0; j < snap.sheets.length; j++)
      if (String(snap.sheets[j]).indexOf(env.origin + '/assets/') !== 0) return null;
    return snap;
  }

  /**
   * Removes what could run code (scripts, frames, event attributes, script URLs), and the blob:
   * addresses of the last launch (offline thumbnails), which no longer exist.
   */
  function defuse(/** @type {DocumentFragment} */ fragment) {
    fragment.querySelectorAll('script,iframe,frame,object,embed,base,meta,link').forEach(function (el) {
      el.remove();
    });
    fragment.querySelectorAll('*').forEach(function (el) {
      for (var i = el.attributes.length - 1; i >= 0; i--) {
        var attr = el.attributes[i];
        if (/^on/i.test(attr.name) || /^\s*(javascript|vbscript|blob):/i.test(attr.value))
          el.removeAttribute(attr.name);
      }
      // The snapshot is a picture: nothing in it may be focused or named twice.
      el.removeAttribute('id');
      el.removeAttribute('autofocus');
      el.removeAttribute('data-testid');
    });
  }

  /** The picture's own styles: the screen fills the layer; 正在启动… sits in a corner. */
  var OWN_STYLE =
    '.screen{position:absolute;inset:0;overflow:hidden;background:var(--mantine-color-body,#fff)}' +
    '.hint{position:absolute;right:12px;bottom:12px;padding:4px 12px;border-radius:999px;' +
    'font-size:13px;color:#fff;background:rgba(73,80,87,.85)}';

  function show() {
    var layer = document.getElementById('launch-snapshot');
    if (!layer || !layer.attachShadow) return;
    var sheets = Array.prototype.map.call(document.querySelectorAll('link[rel="stylesheet"]'), function (l) {
      return l.href;
    });
    var snap = choose({
      raws: KEYS.map(function (key) {
        return localStorage.getItem(key);
      }),
      lastSession: localStorage.getItem(LAST_KEY),
      cookie: document.cookie,
      origin: location.origin,
      path: location.pathname + location.search,
      sheets: sheets,
      now: Date.now(),
    });
    if (!snap) return;
    var scheme = snap.scheme === 'dark' ? 'dark' : 'light';
    document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
    // A closed tree of its own: the picture's copies of the page's rows and names are not part
    // of the document, so nothing that looks for the live page (a script, an end-to-end test,
    // a screen reader: the layer is aria-hidden) finds them twice.
    var tree = layer.attachShadow({ mode: 'closed' });
    var template = document.createElement('template');
    template.innerHTML = snap.html; // a template's content is inert: nothing loads or runs yet
    defuse(template.content);
    var screen = document.createElement('div');
    screen.className = 'screen';
    // Mantine's colour-scheme selectors look for this attribute on an ancestor in the same tree.
    screen.setAttribute('data-mantine-color-scheme', scheme);
    // Nothing in the picture takes focus or a tap: a tap lands on the layer itself, which does
    // nothing, rather than passing through to whatever the app is drawing beneath.
    screen.inert = true;
    screen.appendChild(template.content);
    var hint = document.createElement('div');
    hint.className = 'hint';
    hint.textContent = layer.getAttribute('data-starting') || '';
    var own = document.createElement('style');
    own.textContent = OWN_STYLE;
    tree.appendChild(own);
    layer.dataset.path = snap.path;
    // The page's style sheets, in the picture's tree, before it is seen: a picture without them
    // would be a flash of unstyled text. From the service worker's copy they take milliseconds;
    // a sheet that cannot load leaves the loading screen in place.
    var left = snap.sheets.length;
    // Unless the app has already drawn its own page and taken the layer away.
    var reveal = function () {
      if (layer.isConnected) layer.hidden = false;
    };
    snap.sheets.forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      link.onload = function () {
        if (--left === 0) reveal();
      };
      link.onerror = function () {
        layer.remove();
      };
      tree.appendChild(link);
    });
    tree.appendChild(screen);
    tree.appendChild(hint);
    if (left === 0) reveal();
  }

  if (typeof module === 'object' && module.exports) module.exports = { choose: choose };
  else
    try {
      show();
    } catch {
      /* the loading screen shows instead */
    }
})();
