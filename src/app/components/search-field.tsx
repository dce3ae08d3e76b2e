import { CloseButton, TextInput, type TextInputProps } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { tCore } from '../lib/i18n-core';

/**
 * A list's search box: reports the trimmed text 300 ms after typing stops (one request per
 * pause, not per key), with a clear button. The placeholder is also its accessible name.
 */
export function SearchField({
  placeholder,
  onSearch,
  maxLength = 50,
  ...rest
}: { placeholder: string; onSearch: (keyword: string) => void; maxLength?: number } & Omit<
  TextInputProps,
  'value' | 'onChange'
>) {
  const [input, setInput] = useState('');
  const apply = useDebouncedCallback((v: string) => onSearch(v.trim()), 300);
  const set = (v: string) => {
    setInput(v);
    apply(v);
  };
  return (
    <TextInput
      aria-label={placeholder}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      value={input}
      maxLength={maxLength}
      onChange={(e) => set(e.currentTarget.value)}
      rightSection={input ? <CloseButton aria-label={tCore.common.reset} onClick={() => set('')} /> : null}
      {...rest}
    />
  );
}
