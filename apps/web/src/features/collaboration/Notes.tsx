import Collaboration from '@tiptap/extension-collaboration';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Bold, Heading2, Italic, List, ListOrdered } from 'lucide-react';
import { cn } from '@/lib/cn';
import './notes.css';
import type { CollabClient } from './collab-client';

/** The meeting's shared notes: TipTap over the document's 'notes' fragment (y-prosemirror). */
export default function Notes({ client }: { client: CollabClient }) {
  const editor = useEditor({
    extensions: [
      // Yjs keeps the history of a shared document; ProseMirror's own undo would fight it.
      StarterKit.configure({ undoRedo: false }),
      Collaboration.configure({ document: client.doc, field: 'notes' }),
    ],
    editorProps: {
      attributes: {
        'aria-label': 'Shared notes',
        class: 'prose-notes min-h-full px-4 py-3 text-sm leading-relaxed text-slate-900 outline-none',
      },
    },
  });
  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e?.isActive('bold') ?? false,
      italic: e?.isActive('italic') ?? false,
      heading: e?.isActive('heading', { level: 2 }) ?? false,
      bullet: e?.isActive('bulletList') ?? false,
      ordered: e?.isActive('orderedList') ?? false,
    }),
  });
  const tools = [
    { label: 'Bold', icon: Bold, on: active?.bold, run: () => editor?.chain().focus().toggleBold().run() },
    {
      label: 'Italic',
      icon: Italic,
      on: active?.italic,
      run: () => editor?.chain().focus().toggleItalic().run(),
    },
    {
      label: 'Heading',
      icon: Heading2,
      on: active?.heading,
      run: () => editor?.chain().focus().toggleHeading({ level: 2 }).run(),
    },
    {
      label: 'Bulleted list',
      icon: List,
      on: active?.bullet,
      run: () => editor?.chain().focus().toggleBulletList().run(),
    },
    {
      label: 'Numbered list',
      icon: ListOrdered,
      on: active?.ordered,
      run: () => editor?.chain().focus().toggleOrderedList().run(),
    },
  ];
  return (
    <div className="flex h-full min-h-0 flex-col" data-testid="notes">
      <div className="flex gap-1 border-b border-white/10 px-2 py-1" role="toolbar" aria-label="Formatting">
        {tools.map((t) => (
          <button
            key={t.label}
            type="button"
            aria-label={t.label}
            aria-pressed={!!t.on}
            title={t.label}
            onClick={t.run}
            className={cn(
              'rounded-md p-2 text-slate-300 hover:bg-white/10 hover:text-white md:p-1.5',
              t.on && 'bg-white/15 text-white',
            )}
          >
            <t.icon className="size-4" />
          </button>
        ))}
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto bg-white">
        <EditorContent editor={editor} className="h-full" />
      </div>
    </div>
  );
}
