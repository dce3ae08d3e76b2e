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
  var KEY = 'gwy.launchSnapshot'; // SNAPSHOT_KEY, src/app/lib/session-keys.ts
  var LAST_KEY = 'gwy.lastSession'; // LAST_KEY, the same file
  var MAX_AGE_MS = 7 * 24 * 3600 * 1000; // SNAPSHOT_MAX_AGE_MS

  /**
   * The stored snapshot, when it may be shown here and now; otherwise null.
   * @param {{ raw: string | null, lastSession: string | null, cookie: string, origin: string,
   *   path: string, sheets: string[], now: number }} env
   */
  function choose(env) {
    if (!env.raw || !/(?:^|;\s*)token=[^;]+/.test(env.cookie)) return null;
    var snap, last;
    try {
      snap = JSON.parse(env.raw);
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
    // build names them by their content). The snapshot's others are its page's own, loaded later.
    if (!Array.isArray(snap.sheets)) return null;
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
      // The snapshot is a picture: nothing in it may be focused or named twice, nor be taken for
      // the live page by a test (data-testid) while both are in the document.
      el.removeAttribute('id');
      el.removeAttribute('autofocus');
      el.removeAttribute('data-testid');
    });
  }

  function show() {
    var overlay = document.getElementById('launch-snapshot');
    var screen = overlay && overlay.querySelector('.snapshot-screen');
    if (!overlay || !screen) return;
    var sheets = Array.prototype.map.call(document.querySelectorAll('link[rel="stylesheet"]'), function (l) {
      return l.href;
    });
    var snap = choose({
      raw: localStorage.getItem(KEY),
      lastSession: localStorage.getItem(LAST_KEY),
      cookie: document.cookie,
      origin: location.origin,
      path: location.pathname + location.search,
      sheets: sheets,
      now: Date.now(),
    });
    if (!snap) return;
    var template = document.createElement('template');
    template.innerHTML = snap.html; // a template's content is inert: nothing loads or runs yet
    defuse(template.content);
    screen.appendChild(template.content);
    document.documentElement.setAttribute(
      'data-mantine-color-scheme',
      snap.scheme === 'dark' ? 'dark' : 'light',
    );
    overlay.dataset.path = snap.path;
    // The page's own style sheets (its code's CSS, loaded with its chunk) before it is seen: a
    // picture without them would be a flash of unstyled text. From the service worker's copy
    // they take milliseconds; a sheet that cannot load leaves the loading screen in place.
    var pending = snap.sheets.filter(function (href) {
      return sheets.indexOf(href) < 0;
    });
    var left = pending.length;
    // Unless the app has already drawn its own page and taken the overlay away.
    var reveal = function () {
      if (overlay.isConnected) overlay.hidden = false;
    };
    if (left === 0) reveal();
    pending.forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      link.onload = function () {
        if (--left === 0) reveal();
      };
      link.onerror = function () {
        overlay.remove();
      };
      document.head.appendChild(link);
    });
  }

  if (typeof module === 'object' && module.exports) module.exports = { choose: choose };
  else
    try {
      show();
    } catch {
      /* the loading screen shows instead */
    }
})();
