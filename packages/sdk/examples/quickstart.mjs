// Take a payment: create a session, send the buyer to the hosted checkout page,
// and fulfil the order when the signed webhook says it is paid.
import { createServer } from 'node:http';
import { Gateway, SignatureVerificationError } from '@gateway/sdk';

const gateway = new Gateway(process.env.GATEWAY_API_KEY, { baseUrl: process.env.GATEWAY_BASE_URL });
const webhookSecret = process.env.GATEWAY_WEBHOOK_SECRET;

// 1. Your webhook endpoint: verify the raw body before trusting anything in it.
const server = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    const event = gateway.webhooks.constructEvent(Buffer.concat(chunks), req.headers['x-service-signature'], webhookSecret);
    if (event.event === 'session.succeeded') {
      console.log(`Paid: ${event.data.id} (${event.data.amount} ${event.data.currency}), fulfil order ${event.data.merchant_reference}`);
    }
    res.writeHead(200).end();
  } catch (err) {
    if (!(err instanceof SignatureVerificationError)) throw err;
    res.writeHead(400).end();
  }
});
server.listen(Number(process.env.PORT ?? 3000));
await new Promise((resolve) => server.once('listening', resolve));
const webhookUrl = `http://127.0.0.1:${server.address().port}/webhooks`;

// 2. Create the session (reuse merchant_reference on retries: the same order is never created twice).
const session = await gateway.sessions.create({
  amount: '12.500',
  merchant_reference: `order-${Date.now()}`,
  first_name: 'Amina',
  last_name: 'Ben Salah',
  email: 'amina@example.tn',
  webhook_url: webhookUrl,
});

// 3. Redirect the buyer's browser to checkout_url; the webhook, not the redirect, says it is paid.
console.log(`Send the buyer to: ${session.checkout_url}`);
