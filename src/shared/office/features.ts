/*
 * What an office package holds that an editor might not keep (issue 17 §1: "what the editor
 * cannot keep is warned about before saving, never silently lost"). The editors in the browser
 * keep most of a document, but not everything, and what they drop changes between versions;
 * so instead of a fixed list of "unsupported" features, the page counts these features in the
 * package it opened and in the package it is about to save, and warns about every one whose
 * count went down. A feature the editor does keep never warns; one it drops always does.
 *
 * Pure: the caller lists the package's parts and reads their text (JSZip in the browser,
 * yauzl in tests).
 */

export type OfficeFeature =
  | 'image'
  | 'chart'
  | 'smartArt'
  | 'embedded'
  | 'comment'
  | 'footnote'
  | 'endnote'
  | 'headerFooter'
  | 'trackedChange'
  | 'textBox'
  | 'equation'
  | 'field'
  | 'contentControl'
  | 'macro'
  | 'shape'
  | 'pivotTable'
  | 'validation'
  | 'conditionalFormat'
  | 'sparkline'
  | 'slicer'
  | 'table'
  | 'autoFilter'
  | 'externalLink'
  | 'definedName'
  | 'hyperlink';

/** How the warning names each feature. */
export const FEATURE_LABELS: Record<OfficeFeature, string> = {
  image: '图片',
  chart: '图表',
  smartArt: 'SmartArt 图形',
  embedded: '嵌入的对象（OLE）',
  comment: '批注',
  footnote: '脚注',
  endnote: '尾注',
  headerFooter: '页眉页脚',
  trackedChange: '修订记录',
  textBox: '文本框',
  equation: '公式编辑器公式',
  field: '域（目录、页码等）',
  contentControl: '内容控件',
  macro: '宏',
  shape: '形状',
  pivotTable: '数据透视表',
  validation: '数据验证',
  conditionalFormat: '条件格式',
  sparkline: '迷你图',
  slicer: '切片器',
  table: '表格对象（套用表格格式）',
  autoFilter: '筛选',
  externalLink: '外部链接',
  definedName: '名称定义',
  hyperlink: '超链接',
};

export type FeatureCounts = Partial<Record<OfficeFeature, number>>;

/** A package as the counter sees it: its part names, and the text of a part (null if absent). */
export interface PackageView {
  names: readonly string[];
  text: (name: string) => Promise<string | null>;
}

const count = (xml: string | null, ...tags: string[]) =>
  xml === null
    ? 0
    : tags.reduce((n, tag) => n + (xml.match(new RegExp(`<${tag}[\\s/>]`, 'g'))?.length ?? 0), 0);

function add(into: FeatureCounts, feature: OfficeFeature, n: number) {
  if (n > 0) into[feature] = (into[feature] ?? 0) + n;
}

async function docxFeatures(pkg: PackageView): Promise<FeatureCounts> {
  const out: FeatureCounts = {};
  const doc = await pkg.text('word/document.xml');
  add(out, 'image', count(doc, 'pic:pic', 'v:imagedata'));
  add(out, 'chart', count(doc, 'c:chart'));
  add(out, 'smartArt', count(doc, 'dgm:relIds'));
  add(out, 'embedded', count(doc, 'w:object'));
  add(out, 'comment', count(doc, 'w:commentReference'));
  add(out, 'footnote', count(doc, 'w:footnoteReference'));
  add(out, 'endnote', count(doc, 'w:endnoteReference'));
  add(out, 'headerFooter', count(doc, 'w:headerReference', 'w:footerReference'));
  add(out, 'trackedChange', count(doc, 'w:ins', 'w:del', 'w:moveFrom', 'w:moveTo'));
  add(out, 'textBox', count(doc, 'wps:txbx', 'v:textbox'));
  add(out, 'equation', count(doc, 'm:oMath'));
  add(out, 'field', count(doc, 'w:fldSimple', 'w:instrText'));
  add(out, 'contentControl', count(doc, 'w:sdt'));
  add(out, 'hyperlink', count(doc, 'w:hyperlink'));
  add(out, 'macro', pkg.names.includes('word/vbaProject.bin') ? 1 : 0);
  return out;
}

async function xlsxFeatures(pkg: PackageView): Promise<FeatureCounts> {
  const out: FeatureCounts = {};
  const under = (re: RegExp) => pkg.names.filter((n) => re.test(n));
  for (const name of under(/^xl\/worksheets\/[^/]+\.xml$/)) {
    const xml = await pkg.text(name);
    add(out, 'validation', count(xml, 'dataValidation', 'x14:dataValidation'));
    add(out, 'conditionalFormat', count(xml, 'conditionalFormatting', 'x14:conditionalFormatting'));
    add(out, 'sparkline', count(xml, 'x14:sparklineGroup'));
    add(out, 'autoFilter', count(xml, 'autoFilter'));
    add(out, 'hyperlink', count(xml, 'hyperlink'));
  }
  for (const name of under(/^xl\/drawings\/[^/]+\.xml$/)) {
    const xml = await pkg.text(name);
    add(out, 'chart', count(xml, 'c:chart'));
    add(out, 'image', count(xml, 'xdr:pic'));
    add(out, 'shape', count(xml, 'xdr:sp'));
    add(out, 'smartArt', count(xml, 'dgm:relIds'));
  }
  for (const name of under(/^xl\/comments[^/]*\.xml$/))
    add(out, 'comment', count(await pkg.text(name), 'comment'));
  for (const name of under(/^xl\/threadedComments\/[^/]+\.xml$/))
    add(out, 'comment', count(await pkg.text(name), 'threadedComment'));
  add(out, 'pivotTable', under(/^xl\/pivotTables\/[^/]+\.xml$/).length);
  add(out, 'slicer', under(/^xl\/slicers\/[^/]+\.xml$/).length);
  add(out, 'table', under(/^xl\/tables\/[^/]+\.xml$/).length);
  add(out, 'externalLink', under(/^xl\/externalLinks\/[^/]+\.xml$/).length);
  add(out, 'embedded', under(/^xl\/embeddings\//).length);
  add(out, 'definedName', count(await pkg.text('xl/workbook.xml'), 'definedName'));
  add(out, 'macro', pkg.names.includes('xl/vbaProject.bin') ? 1 : 0);
  return out;
}

/** The features of a docx or xlsx package, with how many of each it holds. */
export function countFeatures(ext: 'docx' | 'xlsx', pkg: PackageView): Promise<FeatureCounts> {
  return ext === 'docx' ? docxFeatures(pkg) : xlsxFeatures(pkg);
}

export interface LostFeature {
  feature: OfficeFeature;
  label: string;
  before: number;
  after: number;
}

/** Every feature of `before` of which `after` holds fewer, in the order of FEATURE_LABELS. */
export function lostFeatures(before: FeatureCounts, after: FeatureCounts): LostFeature[] {
  const lost: LostFeature[] = [];
  for (const feature of Object.keys(FEATURE_LABELS) as OfficeFeature[]) {
    const b = before[feature] ?? 0;
    const a = after[feature] ?? 0;
    if (a < b) lost.push({ feature, label: FEATURE_LABELS[feature], before: b, after: a });
  }
  return lost;
}
