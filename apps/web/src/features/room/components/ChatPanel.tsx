import type { ChatMessage } from '@parley/protocol';
import { ROOM_FILE_LIMITS, WS_LIMITS } from '@parley/protocol/constants';
import { Download, FileText, MessageSquare, Paperclip, Send } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { toast } from '@/components/ui/toast-store';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api';
import { cn } from '@/lib/cn';
import { useUploadFile } from '../api';
import type { RoomSession } from '../room-session';

const URL_RE = /(https?:\/\/[^\s<>"']+)/gi;

const MAX_FILE_MB = ROOM_FILE_LIMITS.maxBytes / (1024 * 1024);

/**
 * The input after a file message went out with `caption` (the text when the file was chosen):
 * the caption leaves the input, whatever was typed during the upload stays.
 */
export function textAfterAttachment(current: string, caption: string): string {
  if (!caption) return current;
  if (current.startsWith(caption)) return current.slice(caption.length).trimStart();
  return current;
}

/** Text with its links as links (opened in a new tab, never fetched here); the rest stays text. */
export function MessageText({ text }: { text: string }) {
  const parts = text.split(URL_RE);
  return (
    <p className="whitespace-pre-wrap break-words">
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <a
            key={i}
            href={part}
            target="_blank"
            rel="noopener noreferrer"
            className="text-brand-300 underline underline-offset-2 hover:text-brand-200"
          >
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </p>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

function Attachment({ file }: { file: NonNullable<ChatMessage['fileData']> }) {
  if (file.mimeType.startsWith('image/')) {
    return (
      <a href={file.url} download={file.name} className="mt-1 block" title={`Download ${file.name}`}>
        <img
          src={file.url}
          alt={file.name}
          loading="lazy"
          className="max-h-48 max-w-full rounded-lg border border-white/10 object-contain"
        />
      </a>
    );
  }
  return (
    <a
      href={file.url}
      download={file.name}
      className="mt-1 flex items-center gap-2 rounded-lg border border-white/10 bg-white/5 px-3 py-2 hover:bg-white/10"
    >
      <FileText className="size-5 shrink-0 text-brand-300" />
      <span className="min-w-0 flex-1">
        <span className="block truncate text-sm">{file.name}</span>
        <span className="text-xs text-slate-400">{formatSize(file.size)}</span>
      </span>
      <Download className="size-4 shrink-0" aria-label="Download" />
    </a>
  );
}

export function ChatPanel({
  session,
  messages,
  selfId,
}: {
  session: RoomSession;
  messages: ChatMessage[];
  selfId: string | undefined;
}) {
  const [text, setText] = useState('');
  const listRef = useRef<HTMLDivElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const upload = useUploadFile(session.meetingId, session.joinToken);

  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length]);

  const send = (e?: FormEvent) => {
    e?.preventDefault();
    if (!text.trim()) return;
    session.sendChat(text);
    setText('');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > ROOM_FILE_LIMITS.maxBytes) {
      toast({
        title: 'File too large',
        description: `Files can be at most ${MAX_FILE_MB} MB.`,
        variant: 'destructive',
      });
      return;
    }
    // The caption is the text when the file was chosen; typing goes on during the upload.
    const caption = text;
    try {
      const uploaded = await upload.mutateAsync(file);
      session.sendChat(caption, uploaded.id);
      setText((current) => textAfterAttachment(current, caption));
    } catch (err) {
      const message = err instanceof ApiError ? err.serverMessage : 'Please try again.';
      toast({ title: 'Upload failed', description: message, variant: 'destructive' });
    } finally {
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div
        ref={listRef}
        className="min-h-0 flex-1 space-y-3 overflow-y-auto p-3"
        aria-live="polite"
        data-testid="chat-messages"
      >
        {messages.length === 0 ? (
          <div className="grid h-full place-items-center text-center text-slate-400">
            <div>
              <MessageSquare className="mx-auto mb-2 size-8 opacity-60" />
              <p className="font-medium text-slate-200">No messages yet</p>
              <p className="text-sm">Start a conversation or share files</p>
            </div>
          </div>
        ) : (
          messages.map((m) => (
            <div
              key={m.id}
              data-testid="chat-message"
              className={cn('text-sm', m.senderId === selfId && 'text-right')}
            >
              <div
                className={cn(
                  'inline-block max-w-full rounded-xl px-3 py-2 text-left',
                  m.senderId === selfId ? 'bg-brand-600/40' : 'bg-white/10',
                )}
              >
                <div className="mb-0.5 flex items-baseline gap-2 text-xs text-slate-400">
                  <span className="font-semibold text-slate-200">
                    {m.senderId === selfId ? 'You' : m.senderName}
                  </span>
                  <time dateTime={m.timestamp}>{formatTime(m.timestamp)}</time>
                </div>
                {m.content ? <MessageText text={m.content} /> : null}
                {m.fileData ? <Attachment file={m.fileData} /> : null}
              </div>
            </div>
          ))
        )}
      </div>
      <form onSubmit={send} className="flex items-end gap-2 border-t border-white/10 p-3">
        <input
          ref={fileRef}
          type="file"
          className="hidden"
          aria-label="Attach a file"
          data-testid="chat-file-input"
          onChange={(e) => void onFile(e.target.files?.[0])}
        />
        <Button
          variant="ghost"
          size="icon"
          className="shrink-0 text-slate-200 hover:bg-white/10"
          aria-label="Share a file"
          title="Share a file or image"
          disabled={upload.isPending}
          onClick={() => fileRef.current?.click()}
        >
          {upload.isPending ? <Spinner className="text-slate-200" label="Uploading" /> : <Paperclip />}
        </Button>
        <Textarea
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Type a message..."
          aria-label="Message"
          rows={1}
          maxLength={WS_LIMITS.maxChatLength}
          className="min-h-10 resize-none border-white/10 bg-white/5 text-slate-100 dark:bg-white/5"
        />
        <Button
          type="submit"
          size="icon"
          className="shrink-0"
          aria-label="Send message"
          disabled={!text.trim()}
        >
          <Send />
        </Button>
      </form>
    </div>
  );
}
