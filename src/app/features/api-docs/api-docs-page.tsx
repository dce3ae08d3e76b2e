import { Accordion, Anchor, Badge, Code, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { LoadingBlock } from '../../components/page-states';
import { LoadFailed } from '../../components/load-failed';
import { tCore } from '../../lib/i18n-core';
import { tApiDocs } from '../../lib/i18n/api-docs';

const A = tApiDocs;

type Json = Record<string, any>;
interface Op {
  method: string;
  path: string;
  op: Json;
}

const METHOD_COLOR: Record<string, string> = { get: 'blue', post: 'green', delete: 'red', put: 'orange' };

/** A JSON schema's type in a word: string, integer, array of integer, enum a|b. */
function typeOf(s: Json | undefined): string {
  if (!s) return '';
  if (s.enum) return (s.enum as unknown[]).join(' | ');
  if (s.type === 'array') return `${typeOf(s.items as Json)}[]`;
  if (s.anyOf) return (s.anyOf as Json[]).map(typeOf).join(' | ');
  return String(s.type ?? '');
}

function Fields({ rows }: { rows: { name: string; where: string; required: boolean; schema: Json }[] }) {
  if (!rows.length)
    return (
      <Text size="sm" c="dimmed">
        {A.noParams}
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped withTableBorder fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{A.name}</Table.Th>
            <Table.Th>{A.where}</Table.Th>
            <Table.Th>{A.type}</Table.Th>
            <Table.Th>{A.note}</Table.Th>
            <Table.Th>{A.required}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={`${r.where}-${r.name}`}>
              <Table.Td>
                <Code>{r.name}</Code>
              </Table.Td>
              <Table.Td>{r.where}</Table.Td>
              <Table.Td>{typeOf(r.schema)}</Table.Td>
              <Table.Td>{String(r.schema?.title ?? r.schema?.description ?? '')}</Table.Td>
              <Table.Td>{r.required ? tCore.common.yes : ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * 接口文档 (/system/openapi), for administrators: the OpenAPI document the server builds from the
 * schemas that validate every call (/openapi.json), browsable by module: each call's method,
 * path and summary, its parameters and body, and what it answers. The whole document downloads
 * for a mini-program or a museum's own integration.
 */
export function ApiDocsPage() {
  const doc = useQuery({
    queryKey: ['openapi'],
    queryFn: async ({ signal }) => {
      const res = await fetch('/openapi.json', { signal });
      if (!res.ok) throw new Error(tCore.errors.server);
      return (await res.json()) as Json;
    },
    staleTime: 5 * 60_000,
  });
  const [search, setSearch] = useState('');
  const groups = useMemo(() => {
    const out = new Map<string, Op[]>();
    const needle = search.trim().toLowerCase();
    for (const [path, methods] of Object.entries((doc.data?.paths ?? {}) as Record<string, Json>))
      for (const [method, op] of Object.entries(methods as Record<string, Json>)) {
        if (needle && !`${path} ${String(op.summary ?? '')}`.toLowerCase().includes(needle)) continue;
        const tag = String((op.tags as string[] | undefined)?.[0] ?? '');
        out.set(tag, [...(out.get(tag) ?? []), { method, path, op }]);
      }
    return [...out].sort(([a], [b]) => a.localeCompare(b));
  }, [doc.data, search]);
  const count = groups.reduce((n, [, ops]) => n + ops.length, 0);

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="api-docs">
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs">
          <Title order={3}>{A.title}</Title>
          {doc.data && (
            <Text size="sm" c="dimmed">
              {A.calls(count)}
            </Text>
          )}
        </Group>
        <Anchor href="/openapi.json" download="openapi.json" size="sm">
          <Group gap={4}>
            <IconDownload size={16} />
            {A.download}
          </Group>
        </Anchor>
      </Group>
      <Text size="sm" c="dimmed">
        {A.intro}
      </Text>
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={A.search}
        aria-label={A.search}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
      />
      {doc.isPending ? (
        <LoadingBlock />
      ) : doc.isError ? (
        <LoadFailed onRetry={() => void doc.refetch()} retrying={doc.isFetching} />
      ) : !groups.length ? (
        <Text c="dimmed">{A.empty}</Text>
      ) : (
        <Accordion multiple variant="separated" chevronPosition="left">
          {groups.map(([tag, ops]) => (
            <Accordion.Item key={tag} value={tag}>
              <Accordion.Control>
                <Group gap="xs">
                  <Text fw={600}>{tag}</Text>
                  <Badge variant="light" size="sm">
                    {ops.length}
                  </Badge>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Accordion variant="contained" chevronPosition="left">
                  {ops.map(({ method, path, op }) => {
                    const params = ((op.parameters ?? []) as Json[]).map((p) => ({
                      name: String(p.name),
                      where: String(p.in),
                      required: Boolean(p.required),
                      schema: p.schema as Json,
                    }));
                    const content = (op.requestBody as Json | undefined)?.content as Json | undefined;
                    const body = (content?.['application/json'] ?? content?.['multipart/form-data'])
                      ?.schema as Json | undefined;
                    const bodyRows = Object.entries((body?.properties ?? {}) as Record<string, Json>).map(
                      ([name, s]) => ({
                        name,
                        where: 'body',
                        required: ((body?.required ?? []) as string[]).includes(name),
                        schema: s,
                      }),
                    );
                    const answer = (op.responses as Json)?.['200']?.content?.['application/json']?.schema
                      ?.properties;
                    const result = answer?.result ?? answer?.data;
                    return (
                      <Accordion.Item key={`${method} ${path}`} value={`${method} ${path}`}>
                        <Accordion.Control>
                          <Group gap="xs" wrap="nowrap">
                            <Badge color={METHOD_COLOR[method] ?? 'gray'} w={64} style={{ flex: 'none' }}>
                              {method.toUpperCase()}
                            </Badge>
                            <Code style={{ wordBreak: 'break-all' }}>{path}</Code>
                            <Text size="sm" c="dimmed" truncate>
                              {String(op.summary ?? '')}
                            </Text>
                            {!op.security && (
                              <Badge variant="outline" size="xs" style={{ flex: 'none' }}>
                                {A.public}
                              </Badge>
                            )}
                          </Group>
                        </Accordion.Control>
                        <Accordion.Panel>
                          <Stack gap="sm">
                            <Text size="sm" fw={600}>
                              {A.parameters}
                            </Text>
                            <Fields rows={[...params, ...bodyRows]} />
                            {result && Object.keys(result).length > 0 && (
                              <>
                                <Text size="sm" fw={600}>
                                  {A.answer}
                                </Text>
                                <Code block style={{ maxHeight: 240, overflow: 'auto' }}>
                                  {JSON.stringify(result, null, 2)}
                                </Code>
                              </>
                            )}
                          </Stack>
                        </Accordion.Panel>
                      </Accordion.Item>
                    );
                  })}
                </Accordion>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </Stack>
  );
}
