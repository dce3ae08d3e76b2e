import { SegmentedControl } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { tContentWeb } from '../../lib/i18n/content-web';
import type { Lang } from './rules';

const W = tContentWeb;

/**
 * One page for a record kept in two languages (the website's route and the English website's
 * land here, each opening on its own language): `render` draws the chosen language's list with
 * the 中文 / English switch it is given (placed among the list's header buttons). Only the chosen
 * list is mounted, with a key per language so each keeps its own filters and paging.
 */
export function LanguageSwitch({
  initial,
  render,
}: {
  initial: Lang;
  render: (lang: Lang, languageSwitch: ReactNode) => ReactNode;
}) {
  const [lang, setLang] = useState<Lang>(initial);
  const control = (
    <SegmentedControl
      aria-label={W.lang}
      value={lang}
      onChange={(v) => setLang(v as Lang)}
      data={[
        { value: 'zh', label: W.zh },
        { value: 'en', label: W.en },
      ]}
      data-testid="content-lang"
    />
  );
  return <div key={lang}>{render(lang, control)}</div>;
}
