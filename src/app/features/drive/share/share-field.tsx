import type { ReactNode } from 'react';
import { Text } from '@mantine/core';
import classes from './share.module.css';

/**
 * One row of the share dialog: the label beside its field, or above it on narrow screens
 * (spec §9: top-labelled at a screen width of 520 or less). The field carries its own
 * aria-label; this label is for the eye.
 */
export function ShareField({
  label,
  htmlFor,
  children,
  error,
}: {
  label: string;
  htmlFor?: string;
  children: ReactNode;
  error?: string | null;
}) {
  return (
    <div className={classes.field} data-testid="share-field">
      <label className={classes.label} htmlFor={htmlFor}>
        {label}
      </label>
      <div>
        {children}
        {error && (
          <Text size="xs" c="red" mt={4} role="alert">
            {error}
          </Text>
        )}
      </div>
    </div>
  );
}
