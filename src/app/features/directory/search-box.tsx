import { CloseButton, TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { ADDRESS_BOOK } from '../../../shared/api/directory';
import { tCore } from '../../lib/i18n-core';
import { tDirectory } from '../../lib/i18n/directory';

/** The directory's search field (name, number or position), with a button that clears it. */
export function SearchBox({
  value,
  onChange,
  ...rest
}: { value: string; onChange: (value: string) => void } & Omit<TextInputProps, 'value' | 'onChange'>) {
  return (
    <TextInput
      type="search"
      aria-label={tDirectory.search}
      placeholder={tDirectory.searchPlaceholder}
      leftSection={<IconSearch size={16} />}
      value={value}
      maxLength={ADDRESS_BOOK.keywordMax}
      onChange={(e) => onChange(e.currentTarget.value)}
      rightSection={
        value ? <CloseButton aria-label={tCore.common.reset} onClick={() => onChange('')} /> : null
      }
      {...rest}
    />
  );
}
