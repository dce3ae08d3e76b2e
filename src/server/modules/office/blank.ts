import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';

/*
 * Blank Office Open XML documents (ECMA-376) for 新建文件: the smallest set of parts that Word,
 * WPS and LibreOffice open without a repair prompt. A4 portrait for Word, one sheet "Sheet1"
 * for Excel, one 16:9 title slide for PowerPoint (which refuses a deck without a slide master,
 * a layout and a theme). Chinese text gets an East Asian default font and zh-CN proofing.
 *
 * The bytes are the same every time (fixed timestamps, no dates in the properties), so every
 * blank document of a type is one stored blob.
 */

export type BlankType = 'docx' | 'xlsx' | 'pptx';

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS = {
  ct: 'http://schemas.openxmlformats.org/package/2006/content-types',
  pr: 'http://schemas.openxmlformats.org/package/2006/relationships',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  w: 'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  s: 'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
  p: 'http://schemas.openxmlformats.org/presentationml/2006/main',
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
};
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const OOXML = 'application/vnd.openxmlformats-officedocument';

type Part = [path: string, xml: string];

function contentTypes(overrides: [string, string][]): Part {
  return [
    '[Content_Types].xml',
    `${XML}<Types xmlns="${NS.ct}">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      overrides.map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`).join('') +
      `<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>` +
      `<Override PartName="/docProps/app.xml" ContentType="${OOXML}.extended-properties+xml"/>` +
      '</Types>',
  ];
}

function rels(path: string, list: [id: string, type: string, target: string][]): Part {
  return [
    path,
    `${XML}<Relationships xmlns="${NS.pr}">` +
      list
        .map(([id, type, target]) => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`)
        .join('') +
      '</Relationships>',
  ];
}

/** The package's root relationships: the main part and the two property parts. */
function rootRels(main: string): Part {
  return rels('_rels/.rels', [
    ['rId1', `${REL}/officeDocument`, main],
    [
      'rId2',
      'http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties',
      'docProps/core.xml',
    ],
    ['rId3', `${REL}/extended-properties`, 'docProps/app.xml'],
  ]);
}

function docProps(application: string): Part[] {
  return [
    [
      'docProps/core.xml',
      `${XML}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ' +
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title></dc:title><dc:creator></dc:creator>' +
        '</cp:coreProperties>',
    ],
    [
      'docProps/app.xml',
      `${XML}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" ` +
        'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">' +
        `<Application>${application}</Application></Properties>`,
    ],
  ];
}

// ———————————————————————————————————————————————————————————————— Word

function docxParts(): Part[] {
  const wml = `${OOXML}.wordprocessingml`;
  return [
    contentTypes([
      ['/word/document.xml', `${wml}.document.main+xml`],
      ['/word/styles.xml', `${wml}.styles+xml`],
      ['/word/settings.xml', `${wml}.settings+xml`],
    ]),
    rootRels('word/document.xml'),
    rels('word/_rels/document.xml.rels', [
      ['rId1', `${REL}/styles`, 'styles.xml'],
      ['rId2', `${REL}/settings`, 'settings.xml'],
    ]),
    [
      'word/document.xml',
      `${XML}<w:document xmlns:w="${NS.w}" xmlns:r="${NS.r}"><w:body><w:p/>` +
        // A4 (210 × 297 mm in twentieths of a point) with Word's default margins for Chinese.
        '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/>' +
        '<w:pgMar w:top="1440" w:right="1800" w:bottom="1440" w:left="1800" w:header="851" w:footer="992" w:gutter="0"/>' +
        '<w:cols w:space="425"/><w:docGrid w:type="lines" w:linePitch="312"/></w:sectPr>' +
        '</w:body></w:document>',
    ],
    [
      'word/styles.xml',
      `${XML}<w:styles xmlns:w="${NS.w}"><w:docDefaults><w:rPrDefault><w:rPr>` +
        '<w:rFonts w:ascii="Calibri" w:eastAsia="宋体" w:hAnsi="Calibri" w:cs="Times New Roman"/>' +
        // 五号 (10.5 pt), the default body size of Chinese documents.
        '<w:kern w:val="2"/><w:sz w:val="21"/><w:szCs w:val="22"/>' +
        '<w:lang w:val="en-US" w:eastAsia="zh-CN" w:bidi="ar-SA"/></w:rPr></w:rPrDefault>' +
        '<w:pPrDefault><w:pPr><w:jc w:val="both"/></w:pPr></w:pPrDefault></w:docDefaults>' +
        '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/>' +
        '<w:pPr><w:widowControl w:val="0"/></w:pPr></w:style>' +
        '<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont">' +
        '<w:name w:val="Default Paragraph Font"/><w:uiPriority w:val="1"/><w:semiHidden/><w:unhideWhenUsed/></w:style>' +
        '<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/>' +
        '<w:uiPriority w:val="99"/><w:semiHidden/><w:unhideWhenUsed/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/>' +
        '<w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/>' +
        '<w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>' +
        '<w:style w:type="numbering" w:default="1" w:styleId="NoList"><w:name w:val="No List"/>' +
        '<w:uiPriority w:val="99"/><w:semiHidden/><w:unhideWhenUsed/></w:style>' +
        '</w:styles>',
    ],
    [
      'word/settings.xml',
      `${XML}<w:settings xmlns:w="${NS.w}"><w:zoom w:percent="100"/><w:defaultTabStop w:val="420"/>` +
        '<w:drawingGridVerticalSpacing w:val="156"/><w:characterSpacingControl w:val="compressPunctuation"/>' +
        '<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat>' +
        '</w:settings>',
    ],
    ...docProps('Microsoft Office Word'),
  ];
}

// ———————————————————————————————————————————————————————————————— Excel

function xlsxParts(): Part[] {
  const sml = `${OOXML}.spreadsheetml`;
  return [
    contentTypes([
      ['/xl/workbook.xml', `${sml}.sheet.main+xml`],
      ['/xl/worksheets/sheet1.xml', `${sml}.worksheet+xml`],
      ['/xl/styles.xml', `${sml}.styles+xml`],
    ]),
    rootRels('xl/workbook.xml'),
    rels('xl/_rels/workbook.xml.rels', [
      ['rId1', `${REL}/worksheet`, 'worksheets/sheet1.xml'],
      ['rId2', `${REL}/styles`, 'styles.xml'],
    ]),
    [
      'xl/workbook.xml',
      `${XML}<workbook xmlns="${NS.s}" xmlns:r="${NS.r}">` +
        '<bookViews><workbookView xWindow="0" yWindow="0" windowWidth="16384" windowHeight="8192"/></bookViews>' +
        '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets><calcPr calcId="191029"/></workbook>',
    ],
    [
      'xl/worksheets/sheet1.xml',
      `${XML}<worksheet xmlns="${NS.s}" xmlns:r="${NS.r}"><dimension ref="A1"/>` +
        '<sheetViews><sheetView tabSelected="1" workbookViewId="0"/></sheetViews>' +
        '<sheetFormatPr defaultRowHeight="14.25"/><sheetData/>' +
        '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>',
    ],
    [
      'xl/styles.xml',
      `${XML}<styleSheet xmlns="${NS.s}">` +
        // No theme part, so nothing refers to one: the font is named, not a theme's "minor".
        '<fonts count="1"><font><sz val="11"/><name val="等线"/><family val="2"/><charset val="134"/></font></fonts>' +
        // Excel expects these two fills first; without them it offers to repair the file.
        '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
        '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>' +
        '<cellStyles count="1"><cellStyle name="常规" xfId="0" builtinId="0"/></cellStyles>' +
        '<dxfs count="0"/><tableStyles count="0" defaultTableStyle="TableStyleMedium2" defaultPivotStyle="PivotStyleLight16"/>' +
        '</styleSheet>',
    ],
    ...docProps('Microsoft Excel'),
  ];
}

// ———————————————————————————————————————————————————————————————— PowerPoint

const SLIDE_W = 12192000; // 16:9, 33.867 cm, in EMU
const SLIDE_H = 6858000;

function groupShape() {
  return (
    '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>' +
    '<p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>'
  );
}

/** A placeholder shape; `box` gives its position (masters and layouts), slides inherit it. */
function placeholder(id: number, name: string, ph: string, box?: [number, number, number, number]) {
  const geometry = box
    ? `<a:xfrm><a:off x="${box[0]}" y="${box[1]}"/><a:ext cx="${box[2]}" cy="${box[3]}"/></a:xfrm>` +
      '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>'
    : '';
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr>` +
    `<p:nvPr>${ph}</p:nvPr></p:nvSpPr><p:spPr>${geometry}</p:spPr>` +
    '<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:endParaRPr lang="zh-CN" altLang="en-US"/></a:p></p:txBody></p:sp>'
  );
}

/** One level of a text style; `font` picks the theme's major (titles) or minor (body) fonts. */
function level(n: number, size: number, indent: boolean, font: 'mj' | 'mn' = 'mn') {
  const mar = indent ? ` marL="${228600 + (n - 1) * 457200}" indent="-228600"` : '';
  const bullet = indent ? '<a:buFont typeface="Arial"/><a:buChar char="•"/>' : '<a:buNone/>';
  return (
    `<a:lvl${n}pPr${mar} algn="l" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1">` +
    `<a:lnSpc><a:spcPct val="90000"/></a:lnSpc>${bullet}` +
    `<a:defRPr sz="${size}" kern="1200"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill>` +
    `<a:latin typeface="+${font}-lt"/><a:ea typeface="+${font}-ea"/><a:cs typeface="+${font}-cs"/></a:defRPr>` +
    `</a:lvl${n}pPr>`
  );
}

function theme() {
  const colour = (name: string, value: string) => `<a:${name}><a:srgbClr val="${value}"/></a:${name}>`;
  const fonts = (latin: string) =>
    `<a:latin typeface="${latin}"/><a:ea typeface=""/><a:cs typeface=""/><a:font script="Hans" typeface="等线"/>`;
  const solid = '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>';
  const line = (w: number) =>
    `<a:ln w="${w}" cap="flat" cmpd="sng" algn="ctr">${solid}<a:prstDash val="solid"/><a:miter lim="800000"/></a:ln>`;
  const effect = '<a:effectStyle><a:effectLst/></a:effectStyle>';
  return (
    `${XML}<a:theme xmlns:a="${NS.a}" name="Office 主题"><a:themeElements>` +
    '<a:clrScheme name="Office">' +
    '<a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1>' +
    colour('dk2', '44546A') +
    colour('lt2', 'E7E6E6') +
    colour('accent1', '4472C4') +
    colour('accent2', 'ED7D31') +
    colour('accent3', 'A5A5A5') +
    colour('accent4', 'FFC000') +
    colour('accent5', '5B9BD5') +
    colour('accent6', '70AD47') +
    colour('hlink', '0563C1') +
    colour('folHlink', '954F72') +
    '</a:clrScheme>' +
    `<a:fontScheme name="Office"><a:majorFont>${fonts('等线 Light')}</a:majorFont>` +
    `<a:minorFont>${fonts('等线')}</a:minorFont></a:fontScheme>` +
    '<a:fmtScheme name="Office">' +
    `<a:fillStyleLst>${solid}${solid}${solid}</a:fillStyleLst>` +
    `<a:lnStyleLst>${line(6350)}${line(12700)}${line(19050)}</a:lnStyleLst>` +
    `<a:effectStyleLst>${effect}${effect}${effect}</a:effectStyleLst>` +
    `<a:bgFillStyleLst>${solid}${solid}${solid}</a:bgFillStyleLst>` +
    '</a:fmtScheme></a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>'
  );
}

function pptxParts(): Part[] {
  const pml = `${OOXML}.presentationml`;
  const ns = `xmlns:a="${NS.a}" xmlns:r="${NS.r}" xmlns:p="${NS.p}"`;
  const clrMap =
    'bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" ' +
    'accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"';
  const titleBox: [number, number, number, number] = [838200, 365125, 10515600, 1325563];
  const bodyBox: [number, number, number, number] = [838200, 1825625, 10515600, 4351338];
  const ctrTitleBox: [number, number, number, number] = [1524000, 1122363, 9144000, 2387600];
  const subTitleBox: [number, number, number, number] = [1524000, 3602038, 9144000, 1655762];
  return [
    contentTypes([
      ['/ppt/presentation.xml', `${pml}.presentation.main+xml`],
      ['/ppt/slideMasters/slideMaster1.xml', `${pml}.slideMaster+xml`],
      ['/ppt/slideLayouts/slideLayout1.xml', `${pml}.slideLayout+xml`],
      ['/ppt/slides/slide1.xml', `${pml}.slide+xml`],
      ['/ppt/theme/theme1.xml', `${OOXML}.theme+xml`],
      ['/ppt/presProps.xml', `${pml}.presProps+xml`],
      ['/ppt/viewProps.xml', `${pml}.viewProps+xml`],
      ['/ppt/tableStyles.xml', `${pml}.tableStyles+xml`],
    ]),
    rootRels('ppt/presentation.xml'),
    rels('ppt/_rels/presentation.xml.rels', [
      ['rId1', `${REL}/slideMaster`, 'slideMasters/slideMaster1.xml'],
      ['rId2', `${REL}/slide`, 'slides/slide1.xml'],
      ['rId3', `${REL}/presProps`, 'presProps.xml'],
      ['rId4', `${REL}/viewProps`, 'viewProps.xml'],
      ['rId5', `${REL}/theme`, 'theme/theme1.xml'],
      ['rId6', `${REL}/tableStyles`, 'tableStyles.xml'],
    ]),
    [
      'ppt/presentation.xml',
      `${XML}<p:presentation ${ns} saveSubsetFonts="1">` +
        '<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>' +
        '<p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst>' +
        `<p:sldSz cx="${SLIDE_W}" cy="${SLIDE_H}"/><p:notesSz cx="6858000" cy="9144000"/>` +
        '</p:presentation>',
    ],
    rels('ppt/slideMasters/_rels/slideMaster1.xml.rels', [
      ['rId1', `${REL}/slideLayout`, '../slideLayouts/slideLayout1.xml'],
      ['rId2', `${REL}/theme`, '../theme/theme1.xml'],
    ]),
    [
      'ppt/slideMasters/slideMaster1.xml',
      `${XML}<p:sldMaster ${ns}><p:cSld>` +
        '<p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg>' +
        `<p:spTree>${groupShape()}` +
        placeholder(2, '标题占位符 1', '<p:ph type="title"/>', titleBox) +
        placeholder(3, '文本占位符 2', '<p:ph type="body" idx="1"/>', bodyBox) +
        '</p:spTree></p:cSld>' +
        `<p:clrMap ${clrMap}/>` +
        '<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst>' +
        '<p:txStyles>' +
        `<p:titleStyle>${level(1, 4400, false, 'mj')}</p:titleStyle>` +
        `<p:bodyStyle>${level(1, 2800, true)}${level(2, 2400, true)}${level(3, 2000, true)}</p:bodyStyle>` +
        `<p:otherStyle>${level(1, 1800, false)}</p:otherStyle>` +
        '</p:txStyles></p:sldMaster>',
    ],
    rels('ppt/slideLayouts/_rels/slideLayout1.xml.rels', [
      ['rId1', `${REL}/slideMaster`, '../slideMasters/slideMaster1.xml'],
    ]),
    [
      'ppt/slideLayouts/slideLayout1.xml',
      `${XML}<p:sldLayout ${ns} type="title" preserve="1"><p:cSld name="标题幻灯片">` +
        `<p:spTree>${groupShape()}` +
        placeholder(2, '标题 1', '<p:ph type="ctrTitle"/>', ctrTitleBox) +
        placeholder(3, '副标题 2', '<p:ph type="subTitle" idx="1"/>', subTitleBox) +
        '</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>',
    ],
    rels('ppt/slides/_rels/slide1.xml.rels', [
      ['rId1', `${REL}/slideLayout`, '../slideLayouts/slideLayout1.xml'],
    ]),
    [
      'ppt/slides/slide1.xml',
      `${XML}<p:sld ${ns}><p:cSld>` +
        `<p:spTree>${groupShape()}` +
        placeholder(2, '标题 1', '<p:ph type="ctrTitle"/>') +
        placeholder(3, '副标题 2', '<p:ph type="subTitle" idx="1"/>') +
        '</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>',
    ],
    ['ppt/theme/theme1.xml', theme()],
    ['ppt/presProps.xml', `${XML}<p:presentationPr ${ns}/>`],
    [
      'ppt/viewProps.xml',
      `${XML}<p:viewPr ${ns}><p:normalViewPr><p:restoredLeft sz="15620"/><p:restoredTop sz="94660"/></p:normalViewPr>` +
        '<p:gridSpacing cx="72008" cy="72008"/></p:viewPr>',
    ],
    [
      'ppt/tableStyles.xml',
      `${XML}<a:tblStyleLst xmlns:a="${NS.a}" def="{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}"/>`,
    ],
    ...docProps('Microsoft Office PowerPoint'),
  ];
}

const PARTS: Record<BlankType, () => Part[]> = { docx: docxParts, xlsx: xlsxParts, pptx: pptxParts };

/**
 * 1980-01-01 in the DOS fields only (no UTC extra field, which would follow the time zone): the
 * same bytes on every machine and every day.
 */
const FIXED_TIME = new Date(1980, 0, 1, 0, 0, 0);

function zip(parts: Part[]): Promise<Buffer> {
  const z = new ZipFile();
  for (const [path, xml] of parts)
    z.addBuffer(Buffer.from(xml, 'utf8'), path, { mtime: FIXED_TIME, forceDosTimestamp: true });
  z.end();
  const out = z.outputStream as Readable;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    out.on('error', reject);
    out.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

const cache = new Map<BlankType, Promise<Buffer>>();

/** The bytes of a blank document of `type` (built once per process). */
export function blankDocument(type: BlankType): Promise<Buffer> {
  let bytes = cache.get(type);
  if (!bytes) {
    bytes = zip(PARTS[type]());
    cache.set(type, bytes);
  }
  return bytes;
}

/** The parts of each blank document, for the tests that check them. */
export const BLANK_PARTS = { docx: docxParts, xlsx: xlsxParts, pptx: pptxParts } as const;
