import yauzl from 'yauzl';

/** The text of one part of an OOXML package (a docx's word/document.xml…), or null. */
export function zipPart(bytes: Buffer, name: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('not a zip'));
      let found = false;
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        found = true;
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            zip.close();
            resolve(Buffer.concat(chunks).toString('utf8'));
          });
        });
      });
      zip.on('end', () => {
        if (!found) resolve(null);
      });
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** The paragraphs' text of a docx, joined. */
export async function docxText(bytes: Buffer): Promise<string> {
  const xml = (await zipPart(bytes, 'word/document.xml')) ?? '';
  return [...xml.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');
}
