/** A reader of text/event-stream (the WHATWG server-sent events format), enough for the gateway's event stream. */

export interface ServerSentEvent {
  id: string;
  event: string;
  data: string;
}

export type StreamItem = { kind: 'event'; event: ServerSentEvent } | { kind: 'comment'; text: string };

/** The events and comments of `body`, in order, until it ends. */
export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamItem> {
  let buffer = '';
  for await (const chunk of body.pipeThrough(new TextDecoderStream())) {
    buffer += chunk.replace(/\r\n?/g, '\n');
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: ServerSentEvent = { id: '', event: 'message', data: '' };
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          yield { kind: 'comment', text: line.slice(1).trim() };
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') data.push(value);
        else if (field === 'id') event.id = value;
        else if (field === 'event') event.event = value;
      }
      if (data.length > 0) yield { kind: 'event', event: { ...event, data: data.join('\n') } };
    }
  }
}
