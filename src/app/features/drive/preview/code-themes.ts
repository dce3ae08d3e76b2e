import type { Extension } from '@codemirror/state';
import type * as Themes from '@uiw/codemirror-themes-all';
import { useLocalStorage } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { tPreview } from '../../../lib/i18n/preview';

/**
 * The code editor's colour themes (spec/drive.md §9: "about 60 named colour themes; theme saved
 * locally"). They come from @uiw/codemirror-themes-all, which is big, so it is imported only
 * when someone actually uses a theme other than the default: the list of names is ours
 * (tPreview.editors.themes), checked against the package's exports by the type below.
 */
type ThemesModule = typeof Themes;
export type ThemeName = {
  [K in keyof ThemesModule]: ThemesModule[K] extends Extension ? K : never;
}[keyof ThemesModule];

/** CodeMirror's own light look; needs no download. */
export const DEFAULT_THEME = 'default';
export type ThemeChoice = ThemeName | typeof DEFAULT_THEME;

// Every exported theme has a label, and every label names an exported theme.
const LABELS: Record<ThemeName, string> = tPreview.editors.themes;

export const THEME_OPTIONS: { value: ThemeChoice; label: string }[] = [
  { value: DEFAULT_THEME, label: tPreview.editors.defaultTheme },
  ...(Object.keys(LABELS) as ThemeName[]).map((value) => ({ value, label: LABELS[value] })),
];

function isChoice(v: unknown): v is ThemeChoice {
  return v === DEFAULT_THEME || (typeof v === 'string' && Object.hasOwn(LABELS, v));
}

const THEME_KEY = 'gwy.editor.theme';

let themes: ThemesModule | null = null;
let loading: Promise<ThemesModule> | null = null;
function loadThemes(): Promise<ThemesModule> {
  loading ??= import('@uiw/codemirror-themes-all').then((m) => (themes = m));
  // A failed download may be retried by the next choice (e.g. once back online).
  loading.catch(() => (loading = null));
  return loading;
}

/**
 * The remembered theme choice (localStorage, shared by the code dialog and the markdown
 * editor) and its CodeMirror extension: null for the default, or while the themes load.
 */
export function useCodeTheme() {
  const [stored, setStored] = useLocalStorage<string>({
    key: THEME_KEY,
    defaultValue: DEFAULT_THEME,
    getInitialValueInEffect: false,
  });
  const choice: ThemeChoice = isChoice(stored) ? stored : DEFAULT_THEME;
  const [mod, setMod] = useState<ThemesModule | null>(themes);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    if (choice === DEFAULT_THEME || mod) return;
    let live = true;
    loadThemes().then(
      (m) => live && setMod(m),
      () => live && setFailed(choice),
    );
    return () => {
      live = false;
    };
  }, [choice, mod]);

  const extension: Extension | null = choice === DEFAULT_THEME || !mod ? null : mod[choice];
  return {
    choice,
    extension,
    /** The chosen theme could not be downloaded (offline before it was ever loaded). */
    failed: failed === choice,
    setChoice: (v: string | null) => setStored(isChoice(v) ? v : DEFAULT_THEME),
  };
}
