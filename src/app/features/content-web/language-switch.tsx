import { Group, SegmentedControl, Stack } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { t } from '../../lib/i18n';
import type { Lang } from './rules';

const W = t.contentWeb;

/**
 * One page for a record kept in two languages (the website's route and the English website's
 * land here, each opening on its own language): 中文 / English above the list of that language.
 * Only the chosen list is mounted, so one list reads at a time.
 */
export function LanguageSwitch({
  initial,
  zh,
  en,
}: {
  initial: Lang;
  zh: () => ReactNode;
  en: () => ReactNode;
}) {
  const [lang, setLang] = useState<Lang>(initial);
  return (
    <Stack gap={0}>
      <Group px="md" pt="md" justify="flex-end">
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
      </Group>
      {/* A key per language, so each list keeps its own filters and paging. */}
      <div key={lang}>{lang === 'zh' ? zh() : en()}</div>
    </Stack>
  );
}
