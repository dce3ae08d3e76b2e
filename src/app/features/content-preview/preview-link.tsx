import { Button } from '@mantine/core';
import { IconDeviceMobile } from '@tabler/icons-react';
import { CONTENT_PREVIEW_PATH } from '../../../shared/api/content-public';
import { tContentPreview } from '../../lib/i18n/content-preview';

/**
 * 预览: opens the visitor-eye preview of the mini-program home (/content-preview) in a new tab,
 * in the given language. A small piece any content page mounts beside its 新增 (the carousel's,
 * the exhibitions', the English website's); the preview reads only the public API, so what it
 * shows is what visitors see.
 */
export function ContentPreviewLink({ lang = 'zh' }: { lang?: 'zh' | 'en' }) {
  return (
    <Button
      component="a"
      href={`${CONTENT_PREVIEW_PATH}?lang=${lang}`}
      target="_blank"
      rel="noopener"
      variant="default"
      leftSection={<IconDeviceMobile size={16} />}
      title={tContentPreview.linkTitle}
    >
      {tContentPreview.link}
    </Button>
  );
}
