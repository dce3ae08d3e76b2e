import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  NumberInput,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DIALOG_WIDTH } from '../../components/dialog-kit';
import { useDialogEscape } from '../../components/dialog-escape';
import { FormActions } from '../../components/form-actions';
import { tBooksReader } from '../../lib/i18n/books-reader';
import { applyFor, precheck, refreshAfterRequest, requestError } from './reader-api';
import { applyProblem, expectedDueDate, maxQuantityOf } from './reader-rules';

const B = tBooksReader;

/**
 * The 借阅 / 领用 dialog of a catalogue row. It opens on the server's pre-check
 * (`bsBookInfo/borrow`, which changes nothing): a refusal is shown in the server's own words
 * (暂无可借的册数…, 您借阅的《…》已逾期…) and nothing else is offered; otherwise the form —
 * 借期 starting from the rule's longest loan with the due date it would give, or 数量 up to the
 * rule's 每次最多领用 and the copies free — and 用途. The request is sent at once, never queued;
 * a refusal at sending (someone took the last copy meanwhile) stays in the dialog.
 */
export function ApplyDialog({
  book,
  applyType,
  onClose,
}: {
  book: { id: number; title: string };
  applyType: 1 | 2;
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const escape = useDialogEscape(onClose);
  const check = useQuery({
    queryKey: ['bookPrecheck', book.id, applyType],
    queryFn: ({ signal }) => precheck(book.id, applyType, signal),
    retry: false,
    gcTime: 0,
    staleTime: 0,
    networkMode: 'always',
  });
  const [borrowDays, setBorrowDays] = useState<number | ''>('');
  const [quantity, setQuantity] = useState<number | ''>(1);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const c = check.data;
  const days = borrowDays === '' && c ? c.maxBorrowDays : borrowDays;
  const maxQuantity = c ? maxQuantityOf(c.maxReceive, c.availableCount) : 1;

  async function submit() {
    if (!c) return;
    const bad = applyProblem(
      { applyType, borrowDays: days, quantity, reason },
      { maxBorrowDays: c.maxBorrowDays, maxQuantity },
    );
    if (bad) return setProblem(bad);
    setProblem(null);
    setSaving(true);
    try {
      await applyFor({
        bookId: book.id,
        applyType,
        quantity: applyType === 1 ? 1 : Number(quantity),
        ...(applyType === 1 && { borrowDays: Number(days) }),
        ...(reason.trim() && { reason: reason.trim() }),
      });
      notifications.show({ color: 'green', message: B.submitted[applyType] });
      refreshAfterRequest(qc);
      onClose();
    } catch (err) {
      setProblem(requestError(err, B.needsNetwork[applyType]!));
    } finally {
      setSaving(false);
    }
  }

  let body;
  if (check.isPending)
    body = (
      <Center py="lg">
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{B.checking}</Text>
        </Group>
      </Center>
    );
  else if (check.isError || (c && !c.allowed))
    body = (
      <Stack gap="md">
        <Alert
          color="orange"
          icon={<IconAlertTriangle size={18} />}
          title={B.refusedTitle[applyType]}
          data-testid="apply-refused"
        >
          {check.isError ? requestError(check.error, B.needsNetwork[applyType]!) : c!.reason}
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {B.gotIt}
          </Button>
        </Group>
      </Stack>
    );
  else if (c)
    body = (
      <Stack gap="sm" data-testid="apply-form">
        <Text size="sm" c="dimmed">
          {B.freeNow(applyType, c.availableCount)}
          {applyType === 1 && ` · ${B.myLoans(c.active, c.maxActive)}`}
        </Text>
        {applyType === 1 ? (
          <NumberInput
            label={B.borrowDays}
            required
            min={1}
            max={c.maxBorrowDays}
            allowDecimal={false}
            clampBehavior="none"
            value={days}
            onChange={(v) => setBorrowDays(v === '' ? '' : Number(v))}
            description={
              typeof days === 'number' && days >= 1 && days <= c.maxBorrowDays
                ? `${B.borrowDaysHint(c.maxBorrowDays)}；${B.dueHint(expectedDueDate(c.defaultDueDate, c.maxBorrowDays, days))}`
                : B.borrowDaysHint(c.maxBorrowDays)
            }
            data-autofocus
          />
        ) : (
          <NumberInput
            label={B.quantity}
            required
            min={1}
            max={maxQuantity}
            allowDecimal={false}
            clampBehavior="none"
            value={quantity}
            onChange={(v) => setQuantity(v === '' ? '' : Number(v))}
            description={B.quantityHint(maxQuantity)}
            data-autofocus
          />
        )}
        <Textarea
          label={B.reason}
          placeholder={B.reasonPlaceholder}
          maxLength={200}
          autosize
          minRows={2}
          maxRows={5}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
        />
        {problem && (
          <Alert color="red" variant="light" data-testid="apply-problem">
            {problem}
          </Alert>
        )}
        <FormActions
          onCancel={onClose}
          saving={saving}
          onSubmit={() => void submit()}
          submitLabel={B.submit[applyType]}
        />
      </Stack>
    );

  return (
    <Modal
      opened
      onClose={onClose}
      title={`${B.dialogTitle[applyType]}：《${book.title}》`}
      size={DIALOG_WIDTH.standard}
      closeOnClickOutside={false}
      {...escape}
    >
      {body}
    </Modal>
  );
}
