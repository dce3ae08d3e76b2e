import { Text, TextInput, type TextInputProps } from '@mantine/core';
import { forwardRef, useRef, type FocusEvent } from 'react';
import { NAME_MAX } from '../../shared/drive/names';

/** The end of a file's base name in `name` (notes of notes.txt); the whole name when it has no extension. */
export function baseNameEnd(name: string): number {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? dot : name.length;
}

/** What the first focus of a name field selects: a file's base name, the whole name, or nothing. */
export type NameSelection = 'base' | 'all' | 'none';

/**
 * Selects (part of) the name when the field is first focused, however it gets focus (the
 * dialog's autofocus, the focus trap, a tap): for a file `notes` of notes.txt, so typing
 * replaces the name and keeps the type, as in the file managers people know. Later focuses
 * leave the caret where the person puts it.
 */
export function useFirstFocusSelect(selection: NameSelection) {
  const done = useRef(false);
  return (e: FocusEvent<HTMLInputElement>) => {
    if (selection === 'none' || done.current) return;
    done.current = true;
    const el = e.currentTarget;
    // After the browser has placed its own caret for this focus.
    requestAnimationFrame(() => {
      if (document.activeElement !== el) return;
      el.setSelectionRange(0, selection === 'base' ? baseNameEnd(el.value) : el.value.length);
    });
  };
}

/**
 * A name field of the drive's dialogs (spec §5): a counter n/255 that turns red past the limit,
 * and typing allowed a little past it so the counter, not a silent cut, tells the person.
 * `select`: what its first focus selects (`base`: the name without its extension).
 */
export const NameField = forwardRef<
  HTMLInputElement,
  Omit<TextInputProps, 'value'> & { value: string; select?: NameSelection }
>(function NameField({ value, select = 'none', onFocus, ...rest }, ref) {
  const firstFocus = useFirstFocusSelect(select);
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
      onFocus={(e) => {
        firstFocus(e);
        onFocus?.(e);
      }}
      {...rest}
    />
  );
});
