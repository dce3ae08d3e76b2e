import { Text, TextInput, type TextInputProps } from '@mantine/core';
import { forwardRef } from 'react';
import { NAME_MAX } from '../../shared/drive/names';

/**
 * A name field of the drive's dialogs (spec §5): a counter n/255 that turns red past the limit,
 * and typing allowed a little past it so the counter, not a silent cut, tells the person.
 */
export const NameField = forwardRef<HTMLInputElement, Omit<TextInputProps, 'value'> & { value: string }>(
  function NameField({ value, ...rest }, ref) {
    return (
      <TextInput
        ref={ref}
        value={value}
        maxLength={NAME_MAX + 50}
        rightSectionWidth={72}
        rightSection={
          <Text size="xs" c={value.length > NAME_MAX ? 'red' : 'dimmed'} aria-live="polite">
            {value.length}/{NAME_MAX}
          </Text>
        }
        {...rest}
      />
    );
  },
);
