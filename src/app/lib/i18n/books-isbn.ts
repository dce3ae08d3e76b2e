/** 按ISBN填充 in the catalogue's form (README "Book lending"). */
export const tBooksIsbn = {
  button: '按ISBN填充',
  buttonLabel: '按ISBN填充：用馆藏中同一 ISBN 的书目信息填写空白项',
  hint: '填写 ISBN 后，可从馆藏已有的同号图书填写题名、责任者、出版社等空白项',
  filled: (title: string, labels: readonly string[]) =>
    `已从馆藏《${title}》填写 ${labels.length} 项：${labels.join('、')}（已填写的内容未改动）`,
  nothingEmpty: '馆藏中有这本书，但要填的各项都已填写，未作改动',
  offline: '按ISBN填充需要联网，请联网后再试，或手工填写',
  ebook: '下载电子版',
  ebookOffline: '下载电子版需要联网，请联网后再试',
} as const;
