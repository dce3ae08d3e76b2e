/** What an in-browser editor (docx-editor.tsx, xlsx-editor.tsx) gives the editing session. */
export interface EditorHandle {
  /** The document as it now is: the bytes of an OOXML package of the file's own type. */
  save: () => Promise<Uint8Array>;
}

export interface EditorProps {
  /** The file's bytes as opened (the editor never keeps a reference that outlives it). */
  bytes: ArrayBuffer;
  /** Who edits (the docx editor's author name for comments and tracked changes). */
  author: string;
  /** Called on every change the person makes (not on the editor's own loading). */
  onChange: () => void;
  onReady: (handle: EditorHandle) => void;
  /** The editor cannot open this file for editing: the page falls back to the viewer, saying why. */
  onFail: (message: string) => void;
}
