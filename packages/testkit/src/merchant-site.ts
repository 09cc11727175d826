/** A stand-in for the merchant's shop: where buyers return to. Records every visit. */
import { createServer, type Server } from 'node:http';

export class MerchantSite {
  readonly visits: URL[] = [];
  private readonly server: Server;
  origin = '';

  private constructor() {
    this.server = createServer((req, res) => {
      this.visits.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Shop</title><h1>Back at the shop</h1>');
    });
  }

  static async start(): Promise<MerchantSite> {
    const site = new MerchantSite();
    await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
    const address = site.server.address();
    site.origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return site;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
