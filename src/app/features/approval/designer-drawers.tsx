import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Checkbox,
  Drawer,
  Group,
  Menu,
  Radio,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import {
  COLUMN,
  MEMBERS_MAX,
  OPT,
  type ApproverNode,
  type BranchNode,
  type Condition,
  type CopyToNode,
  type FormField,
  type StarterNode,
  type Target,
} from '../../../shared/workflow/definition';
import { numberProblem, keepNumber } from '../../../shared/workflow/numbers';
import { nodeAt, type NodePath } from '../../../shared/workflow/paths';
import {
  setDeptRoles,
  setMembers,
  setName,
  setSettype,
  updateNode,
  type DeptRoleRow,
} from '../../../shared/workflow/tree';
import { conditionProblems, nodeProblems } from '../../../shared/workflow/validate';
import { tCore } from '../../lib/i18n-core';
import { tDesigner } from '../../lib/i18n/designer';
import { newCondition, type ConditionField } from '../../lib/workflow-designer';
import { TargetField, usePickerData } from './designer-picker';
import { useDialogEscape } from '../../components/dialog-escape';

const D = tDesigner.drawer;
/** Designer drawers are 550 px (spec §9). */
const DRAWER_WIDTH = 550;

export type DrawerTarget = { kind: 'starter' } | { kind: 'node'; path: NodePath };

interface Props {
  target: DrawerTarget | null;
  root: StarterNode;
  flowPermission: readonly Target[];
  fields: readonly FormField[];
  directorMaxLevel: number;
  conditionFields: readonly ConditionField[];
  onClose: () => void;
  /** The drawer's edits, applied only on 确定. */
  onCommit: (root: StarterNode, flowPermission: Target[]) => void;
}

/**
 * The node drawers of the designer (spec §2: starter, approver, copy-to, condition; 550 px).
 * A drawer edits a working copy of the tree through the shared rules (tree.ts), so every change
 * (settype clearing, the five-member cut, 请选择角色) is exactly the rule the server knows; 确定
 * hands the copy back, 取消 drops it.
 */
export function DesignerDrawer(props: Props) {
  const { target } = props;
  const [work, setWork] = useState<{ root: StarterNode; scope: Target[] } | null>(null);
  const [seen, setSeen] = useState<DrawerTarget | null>(null);
  const [blocked, setBlocked] = useState<string | null>(null);
  if (target !== seen) {
    setSeen(target);
    setWork(target ? { root: props.root, scope: [...props.flowPermission] } : null);
    setBlocked(null);
  }
  const node = work && target?.kind === 'node' ? nodeAt(work.root, target.path) : undefined;
  const title =
    target?.kind === 'starter'
      ? D.starterTitle
      : node?.type === 1
        ? D.approverTitle
        : node?.type === 2
          ? D.copyToTitle
          : D.conditionTitle;

  const commit = () => {
    if (!work || blocked) return;
    props.onCommit(work.root, work.scope);
    props.onClose();
  };

  // Escape in the person picker closes the picker, not this drawer.
  const escape = useDialogEscape(props.onClose, target !== null && work !== null);
  return (
    <Drawer
      {...escape}
      opened={target !== null && work !== null}
      onClose={props.onClose}
      position="right"
      size={DRAWER_WIDTH}
      title={title}
      closeOnClickOutside={false}
      data-testid="designer-drawer"
    >
      {work && target && (
        <Stack gap="md" key={target.kind === 'node' ? target.path.join('.') : 'starter'}>
          {target.kind === 'starter' ? (
            <TargetField
              label={tDesigner.basic.scope}
              description={tDesigner.basic.scopeHint}
              buttonLabel={tDesigner.basic.chooseScope}
              kinds={[1, 3]}
              value={work.scope}
              onChange={(scope) => setWork({ ...work, scope })}
              testId="starter-scope"
            />
          ) : node ? (
            <>
              <NameInput
                key={target.path.join('.')}
                value={node.nodeName}
                onCommit={(name) => {
                  const next = setName(work.root, target.path, name);
                  setWork({ ...work, root: next });
                  return nodeAt(next, target.path)?.nodeName ?? name;
                }}
              />
              {node.type === 1 && (
                <ApproverForm
                  root={work.root}
                  path={target.path}
                  node={node}
                  directorMaxLevel={props.directorMaxLevel}
                  onChange={(root) => setWork({ ...work, root })}
                  onBlocked={setBlocked}
                />
              )}
              {node.type === 2 && (
                <CopyToForm
                  node={node}
                  onChange={(fn) =>
                    setWork({ ...work, root: updateNode<CopyToNode>(work.root, target.path, fn) })
                  }
                />
              )}
              {node.type === 3 && (
                <BranchForm
                  root={work.root}
                  path={target.path}
                  node={node}
                  fields={props.fields}
                  conditionFields={props.conditionFields}
                  onChange={(fn) =>
                    setWork({ ...work, root: updateNode<BranchNode>(work.root, target.path, fn) })
                  }
                />
              )}
            </>
          ) : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={props.onClose}>
              {D.cancel}
            </Button>
            <Button onClick={commit} disabled={!!blocked}>
              {D.ok}
            </Button>
          </Group>
        </Stack>
      )}
    </Drawer>
  );
}

/** The node's name; blank falls back to the default on blur (setName), which `onCommit` returns. */
export function NameInput({ value, onCommit }: { value: string; onCommit: (name: string) => string }) {
  const [text, setText] = useState(value);
  const [last, setLast] = useState(value);
  if (value !== last) {
    setLast(value);
    setText(value);
  }
  return (
    <TextInput
      label={D.name}
      value={text}
      maxLength={30}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={() => setText(onCommit(text))}
    />
  );
}

function ApproverForm({
  root,
  path,
  node,
  directorMaxLevel,
  onChange,
  onBlocked,
}: {
  root: StarterNode;
  path: NodePath;
  node: ApproverNode;
  directorMaxLevel: number;
  onChange: (root: StarterNode) => void;
  onBlocked: (problem: string | null) => void;
}) {
  const [warning, setWarning] = useState<string | null>(null);
  const [rows, setRows] = useState<DeptRoleRow[]>(() =>
    node.deptRoleList.length ? node.deptRoleList.map((p) => ({ ...p })) : [{}],
  );
  const [rowProblem, setRowProblem] = useState<string | null>(null);
  const picker = usePickerData();
  const problem = nodeProblems(node, false, { directorMaxLevel })[0] ?? null;

  const applyRows = (next: DeptRoleRow[]) => {
    setRows(next);
    const r = setDeptRoles(root, path, next);
    setRowProblem(r.problem);
    onBlocked(r.problem);
    if (!r.problem) onChange(r.tree);
  };

  return (
    <>
      <Radio.Group
        label={D.settype}
        value={String(node.settype)}
        onChange={(v) => {
          setWarning(null);
          setRowProblem(null);
          onBlocked(null);
          if (Number(v) === 3) setRows([{}]);
          onChange(setSettype(root, path, Number(v) as ApproverNode['settype']));
        }}
      >
        <Group gap="md" mt={6}>
          {([1, 2, 3, 5] as const).map((s) => (
            <Radio key={s} value={String(s)} label={D.settypes[s]} />
          ))}
        </Group>
      </Radio.Group>

      {node.settype === 1 && (
        <>
          <TargetField
            label={D.members}
            description={D.membersHint(MEMBERS_MAX)}
            buttonLabel={D.addMembers}
            kinds={[1]}
            value={node.nodeUserList}
            error={problem}
            onChange={(picks) => {
              const r = setMembers(root, path, picks);
              setWarning(r.warning);
              onChange(r.tree);
            }}
            testId="approver-members"
          />
          {warning && (
            <Alert color="orange" variant="light" role="alert">
              {warning}
            </Alert>
          )}
        </>
      )}
      {node.settype === 2 && (
        <Select
          label={D.level}
          description={D.levelHint}
          value={String(node.directorLevel)}
          allowDeselect={false}
          data={Array.from({ length: directorMaxLevel }, (_, i) => ({
            value: String(i + 1),
            label: D.levelOption(i + 1),
          }))}
          onChange={(v) =>
            v && onChange(updateNode<ApproverNode>(root, path, (n) => ({ ...n, directorLevel: Number(v) })))
          }
          error={problem}
        />
      )}
      {node.settype === 3 && (
        <Stack gap="xs">
          <Text size="sm" fw={500}>
            {D.deptRoles}
          </Text>
          {rows.map((row, i) => (
            <Group key={i} gap="xs" align="flex-start" wrap="nowrap">
              <Select
                label={D.dept}
                withAsterisk
                placeholder={tCore.common.required}
                style={{ flex: 1 }}
                searchable
                value={row.deptid ? String(row.deptid) : null}
                data={(picker.data?.deptlist ?? []).map((d) => ({
                  value: String(d.deptId),
                  label: d.deptName,
                }))}
                onChange={(v) => {
                  const d = picker.data?.deptlist.find((x) => String(x.deptId) === v);
                  applyRows(
                    rows.map((r, j) =>
                      j === i ? { ...r, deptid: d?.deptId ?? null, deptName: d?.deptName } : r,
                    ),
                  );
                }}
              />
              <Select
                label={D.role}
                withAsterisk
                placeholder={tCore.common.required}
                style={{ flex: 1 }}
                searchable
                value={row.roleid ? String(row.roleid) : null}
                error={!!row.deptid && !row.roleid && !!rowProblem}
                data={(picker.data?.deptrolelist ?? []).map((r) => ({
                  value: String(r.roleid),
                  label: r.roleName,
                }))}
                onChange={(v) => {
                  const r = picker.data?.deptrolelist.find((x) => String(x.roleid) === v);
                  applyRows(
                    rows.map((x, j) =>
                      j === i ? { ...x, roleid: r?.roleid ?? null, roleName: r?.roleName } : x,
                    ),
                  );
                }}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                mt={26}
                aria-label={tCore.common.delete}
                onClick={() => applyRows(rows.filter((_, j) => j !== i))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          {rowProblem && (
            <Text size="sm" c="red" role="alert">
              {rowProblem}
            </Text>
          )}
          {!rowProblem && problem && (
            <Text size="sm" c="red">
              {problem}
            </Text>
          )}
          <Button
            variant="light"
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => setRows([...rows, {}])}
            w="fit-content"
          >
            {D.addDeptRole}
          </Button>
        </Stack>
      )}
      {node.settype === 5 && <Text size="sm">{D.starterSelfHint}</Text>}

      {(node.settype === 1 || node.settype === 3) && (
        <Radio.Group
          label={D.examineMode}
          value={String(node.examineMode)}
          onChange={(v) =>
            onChange(updateNode<ApproverNode>(root, path, (n) => ({ ...n, examineMode: Number(v) as 1 | 2 })))
          }
        >
          <Stack gap={6} mt={6}>
            <Radio value="1" label={D.examineAny} />
            <Radio value="2" label={D.examineAll} />
          </Stack>
        </Radio.Group>
      )}
    </>
  );
}

function CopyToForm({
  node,
  onChange,
}: {
  node: CopyToNode;
  onChange: (fn: (n: CopyToNode) => CopyToNode) => void;
}) {
  const problem = nodeProblems(node, false)[0] ?? null;
  return (
    <>
      <TargetField
        label={D.recipients}
        buttonLabel={D.addRecipients}
        kinds={[1]}
        value={node.nodeUserList}
        error={problem}
        onChange={(picks) => onChange((n) => ({ ...n, nodeUserList: picks.filter((p) => p.type === 1) }))}
        testId="copyto-recipients"
      />
      <Radio.Group
        label={D.notice}
        value={String(node.notice)}
        onChange={(v) => onChange((n) => ({ ...n, notice: Number(v) as 0 | 1 }))}
      >
        <Stack gap={6} mt={6}>
          <Radio value="0" label={D.noticeOnSubmit} />
          <Radio value="1" label={D.noticeOnApproved} />
        </Stack>
      </Radio.Group>
      {/* The spec shows this option as a disabled checkbox. */}
      <Checkbox label={D.starterCannotChange} disabled checked={false} onChange={() => undefined} />
    </>
  );
}

function BranchForm({
  root,
  path,
  node,
  fields,
  conditionFields,
  onChange,
}: {
  root: StarterNode;
  path: NodePath;
  node: BranchNode;
  fields: readonly FormField[];
  conditionFields: readonly ConditionField[];
  onChange: (fn: (n: BranchNode) => BranchNode) => void;
}) {
  const routerPath = path.slice(0, -1);
  const router = nodeAt(root, routerPath);
  const isLast = router?.type === 4 && path[path.length - 1] === router.conditionNodes.length - 1;
  const used = new Set(node.conditionList.map((c) => c.columnId));
  const free = conditionFields.filter((f) => !used.has(f.columnId));
  const setCond = (i: number, fn: (c: Condition) => Condition) =>
    onChange((n) => ({ ...n, conditionList: n.conditionList.map((c, j) => (j === i ? fn(c) : c)) }));

  return (
    <>
      <Text size="sm" c="dimmed">
        {tDesigner.flow.priority(node.priorityLevel)}
      </Text>
      {isLast && node.conditionList.length === 0 ? (
        <Alert variant="light">{D.fallbackHint}</Alert>
      ) : (
        <>
          <Text size="sm" fw={500}>
            {D.conditions}
          </Text>
          {node.conditionList.length === 0 && (
            <Text size="sm" c="dimmed">
              {D.noConditions}
            </Text>
          )}
          {node.conditionList.map((c, i) => (
            <ConditionCard
              key={c.columnId}
              cond={c}
              fields={fields}
              conditionField={conditionFields.find((f) => f.columnId === c.columnId)}
              onChange={(fn) => setCond(i, fn)}
              onRemove={() =>
                onChange((n) => ({ ...n, conditionList: n.conditionList.filter((_, j) => j !== i) }))
              }
            />
          ))}
          {conditionFields.length <= 1 && (
            <Text size="xs" c="dimmed">
              {D.noFields}
            </Text>
          )}
        </>
      )}
      {!isLast && (
        <Menu position="bottom-start">
          <Menu.Target>
            <Button
              variant="light"
              leftSection={<IconPlus size={14} />}
              disabled={free.length === 0}
              w="fit-content"
            >
              {D.addCondition}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {free.map((f) => (
              <Menu.Item
                key={f.columnId}
                onClick={() =>
                  onChange((n) => ({ ...n, conditionList: [...n.conditionList, newCondition(f)] }))
                }
              >
                {f.showName}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
    </>
  );
}

/** A number text input that keeps only what numbers.ts allows and says what is wrong on blur. */
function NumberText({
  label,
  value,
  onChange,
  suffix,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  suffix: string;
}) {
  const [touched, setTouched] = useState(false);
  return (
    <TextInput
      label={label}
      value={value}
      inputMode="decimal"
      rightSection={<Text size="xs">{suffix}</Text>}
      onChange={(e) => onChange(keepNumber(e.currentTarget.value))}
      onBlur={() => setTouched(true)}
      error={touched ? numberProblem(value) : null}
      style={{ flex: 1 }}
    />
  );
}

function ConditionCard({
  cond,
  fields,
  conditionField,
  onChange,
  onRemove,
}: {
  cond: Condition;
  fields: readonly FormField[];
  conditionField: ConditionField | undefined;
  onChange: (fn: (c: Condition) => Condition) => void;
  onRemove: () => void;
}) {
  const problems = conditionProblems(cond, fields);
  const numeric = cond.columnType === COLUMN.amount || cond.columnType === COLUMN.duration;
  const unitText = cond.columnType === COLUMN.amount ? D.yuan : cond.unit === 0 ? D.hours : D.days;
  return (
    <Card withBorder radius="sm" p="sm" data-testid="condition-card">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text size="sm" fw={500}>
            {cond.showName}
          </Text>
          <ActionIcon variant="subtle" color="red" aria-label={D.removeCondition} onClick={onRemove}>
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
        {numeric && (
          <>
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <Select
                label={D.operator}
                allowDeselect={false}
                value={cond.optType ? String(cond.optType) : null}
                data={([1, 2, 3, 4, 5, 6] as const).map((o) => ({ value: String(o), label: D.ops[o] }))}
                onChange={(v) =>
                  v &&
                  onChange((c) => ({
                    ...c,
                    optType: Number(v) as NonNullable<Condition['optType']>,
                    zdy2: Number(v) === OPT.range ? (c.zdy2 ?? '') : undefined,
                  }))
                }
                w={150}
              />
              {cond.columnType === COLUMN.duration && (
                <Select
                  label={D.unitLabel}
                  allowDeselect={false}
                  value={cond.unit === undefined ? null : String(cond.unit)}
                  data={[
                    { value: '0', label: D.hours },
                    { value: '1', label: D.days },
                  ]}
                  onChange={(v) => v && onChange((c) => ({ ...c, unit: Number(v) as 0 | 1 }))}
                  w={100}
                />
              )}
            </Group>
            <Group gap="xs" wrap="nowrap">
              <NumberText
                label={cond.optType === OPT.range ? D.from : D.value}
                value={cond.zdy1 ?? ''}
                suffix={unitText}
                onChange={(v) => onChange((c) => ({ ...c, zdy1: v }))}
              />
              {cond.optType === OPT.range && (
                <NumberText
                  label={D.to}
                  value={cond.zdy2 ?? ''}
                  suffix={unitText}
                  onChange={(v) => onChange((c) => ({ ...c, zdy2: v }))}
                />
              )}
            </Group>
          </>
        )}
        {cond.columnType === COLUMN.choice && (
          <Checkbox.Group
            label={D.choices}
            value={cond.downValArr ?? []}
            onChange={(v) => onChange((c) => ({ ...c, downValArr: v }))}
          >
            <Group gap="md" mt={6}>
              {(conditionField?.options ?? []).map((o) => (
                <Checkbox key={o.key} value={o.key} label={o.value} />
              ))}
            </Group>
          </Checkbox.Group>
        )}
        {cond.columnType === COLUMN.person && (
          <TargetField
            label={D.starterIn}
            buttonLabel={D.chooseStarters}
            kinds={[1, 3]}
            value={cond.nodeUserList ?? []}
            onChange={(picks) => onChange((c) => ({ ...c, nodeUserList: picks }))}
          />
        )}
        {problems.length > 0 && (
          <Text size="xs" c="red">
            {problems.join('；')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
