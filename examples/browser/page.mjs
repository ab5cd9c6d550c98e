// The browser side: `import ... from 'shorn'` as in Node; the bundler takes the package's
// browser build (its package.json "browser" field). encode returns a Uint8Array.
import { compile } from 'shorn';
import { Message } from './schema.js';

const messages = compile(Message);
const log = (line) => {
  document.querySelector('#log').textContent += `${line}\n`;
};

// Read the server's bytes...
const response = await fetch('/message');
const first = messages.decode(new Uint8Array(await response.arrayBuffer()));
log(`got #${first.id} from ${first.from}: ${first.text} (${messages.backend} back end)`);

// ...and send ours; the server decodes them with the native back end.
const reply = { id: first.id + 1, from: 'browser', text: `hello, ${first.from}`, at: new Date(), tags: ['chat'] };
const sent = await fetch('/message', { method: 'POST', headers: { 'content-type': 'application/x-shorn' }, body: messages.encode(reply) });
log(`sent #${reply.id} (${messages.encode(reply).length} bytes); server says: ${await sent.text()}`);
