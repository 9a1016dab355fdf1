import * as Y from 'yjs';

type PmNode = {
  type: string;
  attrs?: Record<string, unknown>;
  content?: PmNode[];
  text?: string;
  marks?: PmMark[];
};
type PmMark = { type: string; attrs?: Record<string, unknown> };

/** Blocks whose text ends a line in the plain-text rendering. */
const BLOCKS = new Set(['paragraph', 'heading', 'codeBlock', 'listItem', 'blockquote', 'horizontalRule']);

/**
 * The shared notes (a Y.XmlFragment written by y-prosemirror) as ProseMirror JSON and as plain
 * text, for reading after the meeting. y-prosemirror stores each node as an XmlElement named
 * after its type with its attributes, and text as XmlText whose formatting attributes are marks.
 */
export function notesOf(fragment: Y.XmlFragment): { doc: Record<string, unknown> | null; text: string } {
  if (fragment.length === 0) return { doc: null, text: '' };
  const content = fragment.toArray().flatMap(toNode);
  const doc: PmNode = { type: 'doc', content };
  const lines: string[] = [];
  for (const node of content) collectText(node, lines, '');
  return { doc: doc as unknown as Record<string, unknown>, text: lines.join('\n').trim() };
}

function toNode(item: Y.XmlElement | Y.XmlText | Y.XmlHook): PmNode[] {
  if (item instanceof Y.XmlText) {
    const delta = item.toDelta() as Array<{ insert: unknown; attributes?: Record<string, unknown> }>;
    return delta
      .filter((d) => typeof d.insert === 'string' && d.insert.length > 0)
      .map((d) => {
        const node: PmNode = { type: 'text', text: d.insert as string };
        const marks = Object.entries(d.attributes ?? {}).map(([type, attrs]) =>
          attrs && typeof attrs === 'object' && Object.keys(attrs).length
            ? { type, attrs: attrs as Record<string, unknown> }
            : { type },
        );
        if (marks.length) node.marks = marks;
        return node;
      });
  }
  if (item instanceof Y.XmlElement) {
    const node: PmNode = { type: item.nodeName };
    const attrs = item.getAttributes();
    if (Object.keys(attrs).length) node.attrs = attrs;
    const children = item.toArray().flatMap((c) => toNode(c as Y.XmlElement | Y.XmlText));
    if (children.length) node.content = children;
    return [node];
  }
  return [];
}

function collectText(node: PmNode, lines: string[], prefix: string): void {
  if (node.type === 'bulletList' || node.type === 'orderedList') {
    (node.content ?? []).forEach((item, i) =>
      collectText(item, lines, node.type === 'bulletList' ? '• ' : `${i + 1}. `),
    );
    return;
  }
  if (node.type === 'listItem' || node.type === 'blockquote') {
    (node.content ?? []).forEach((child, i) => collectText(child, lines, i === 0 ? prefix : '  '));
    return;
  }
  if (BLOCKS.has(node.type)) {
    lines.push(prefix + inlineText(node));
    return;
  }
  for (const child of node.content ?? []) collectText(child, lines, prefix);
}

function inlineText(node: PmNode): string {
  if (node.type === 'text') return node.text ?? '';
  if (node.type === 'hardBreak') return '\n';
  return (node.content ?? []).map(inlineText).join('');
}
