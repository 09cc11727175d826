/** Webhook destinations (DECISIONS D11): which addresses and URLs are refused. */
import { strict as assert } from 'node:assert';
import { isForbiddenAddress, isIpLiteral, webhookUrlProblem } from '../../src/webhook-address.js';

describe('isForbiddenAddress', () => {
  // [range, just outside below, first inside, last inside, just outside above]; undefined: no such edge.
  const ipv4Ranges: ReadonlyArray<readonly [string, string | undefined, string, string, string | undefined]> = [
    ['0.0.0.0/8', undefined, '0.0.0.0', '0.255.255.255', '1.0.0.0'],
    ['10/8', '9.255.255.255', '10.0.0.0', '10.255.255.255', '11.0.0.0'],
    ['100.64/10 CGNAT', '100.63.255.255', '100.64.0.0', '100.127.255.255', '100.128.0.0'],
    ['127/8 loopback', '126.255.255.255', '127.0.0.0', '127.255.255.255', '128.0.0.0'],
    ['169.254/16 link-local', '169.253.255.255', '169.254.0.0', '169.254.255.255', '169.255.0.0'],
    ['172.16/12', '172.15.255.255', '172.16.0.0', '172.31.255.255', '172.32.0.0'],
    ['192.0.0/24', '191.255.255.255', '192.0.0.0', '192.0.0.255', '192.0.1.0'],
    ['192.168/16', '192.167.255.255', '192.168.0.0', '192.168.255.255', '192.169.0.0'],
    ['198.18/15', '198.17.255.255', '198.18.0.0', '198.19.255.255', '198.20.0.0'],
    ['224/4 multicast and 240/4 reserved', '223.255.255.255', '224.0.0.0', '255.255.255.255', undefined],
  ];
  for (const [range, below, first, last, above] of ipv4Ranges) {
    it(`When an IPv4 address is at the edges of ${range}, then only the addresses inside are forbidden`, () => {
      assert.equal(isForbiddenAddress(first), true, first);
      assert.equal(isForbiddenAddress(last), true, last);
      if (below !== undefined) assert.equal(isForbiddenAddress(below), false, below);
      if (above !== undefined) assert.equal(isForbiddenAddress(above), false, above);
    });
  }

  it('When the IPv4 address is a well-known special one, then it is forbidden', () => {
    for (const ip of ['127.0.0.1', '10.0.0.1', '100.64.0.1', '169.254.169.254', '192.168.1.1', '172.17.0.1', '0.0.0.0', '240.0.0.1', '239.255.255.250']) {
      assert.equal(isForbiddenAddress(ip), true, ip);
    }
  });

  it('When the IPv4 address is public, then it is allowed', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '1.1.1.1', '41.226.0.1', '197.0.0.1', '100.63.255.255', '172.15.255.255', '223.255.255.255']) {
      assert.equal(isForbiddenAddress(ip), false, ip);
    }
  });

  it('When the IPv6 address is unspecified or loopback, then it is forbidden', () => {
    for (const ip of ['::', '::1', '0:0:0:0:0:0:0:0', '0:0:0:0:0:0:0:1', '0000:0000:0000:0000:0000:0000:0000:0001']) {
      assert.equal(isForbiddenAddress(ip), true, ip);
    }
  });

  const ipv6Ranges: ReadonlyArray<readonly [string, string, string]> = [
    ['fc00::/7 unique-local', 'fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['fe80::/10 link-local', 'fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['fec0::/10 site-local', 'fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['ff00::/8 multicast', 'ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ];
  for (const [range, first, last] of ipv6Ranges) {
    it(`When an IPv6 address is at the edges of ${range}, then it is forbidden`, () => {
      assert.equal(isForbiddenAddress(first), true, first);
      assert.equal(isForbiddenAddress(last), true, last);
    });
  }

  it('When the IPv6 address is the AWS metadata address fd00:ec2::254, then it is forbidden', () => {
    assert.equal(isForbiddenAddress('fd00:ec2::254'), true);
  });

  it('When an IPv6 address is just outside the forbidden ranges, then it is allowed', () => {
    for (const ip of [
      'fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fe00::', 'fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '::1:0:0:0', '::fffe:7f00:1',
      '64:ff9a::7f00:1', '64:ff9b:0:0:0:1:7f00:1', '2001:7f00:1::', '2003:7f00:1::', '2001:db8::1', '2606:4700:4700::1111', '2a00:1450:4007:80f::200e', '1::',
    ]) {
      assert.equal(isForbiddenAddress(ip), false, ip);
    }
  });

  it('When an IPv6 address carries a forbidden IPv4 address (mapped, compatible, NAT64, 6to4), then it is forbidden', () => {
    for (const ip of [
      '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:1', '::FFFF:7F00:0001', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe',
      '::ffff:10.0.0.1', '::ffff:0.0.0.0', '::ffff:100.64.0.1', '::ffff:172.16.0.1', '::ffff:192.168.0.1', '::ffff:255.255.255.255',
      '::127.0.0.1', '::7f00:1', '::10.0.0.1', '::169.254.169.254',
      '64:ff9b::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b::a00:1', '64:ff9b::169.254.169.254',
      '2002:7f00:1::', '2002:a00:1::1', '2002:a9fe:a9fe::', '2002:c0a8:101:1::1',
      // SIIT's IPv4-translated form, and the local-use NAT64 prefix (RFC 8215), whose translator is the site's own.
      '::ffff:0:7f00:1', '::ffff:0:10.0.0.1', '::ffff:0:169.254.169.254', '64:ff9b:1::a00:1', '64:ff9b:1:ffff::5db8:d822',
    ]) {
      assert.equal(isForbiddenAddress(ip), true, ip);
    }
  });

  it('When an IPv6 address carries a public IPv4 address, then it is judged by that address and allowed', () => {
    for (const ip of ['::ffff:93.184.216.34', '::ffff:5db8:d822', '::ffff:100.63.255.255', '::ffff:172.15.255.255', '64:ff9b::8.8.8.8', '2002:5db8:d822::1', '::8.8.8.8', '::ffff:0:8.8.8.8']) {
      assert.equal(isForbiddenAddress(ip), false, ip);
    }
  });

  it('When the IPv6 address has a zone, then the address part is judged', () => {
    assert.equal(isForbiddenAddress('fe80::1%eth0'), true);
  });

  it('When the value is not an IP address, then isForbiddenAddress throws rather than allowing it', () => {
    for (const value of ['localhost', 'example.com', '[::1]', '', '127.1', '0x7f000001', '2130706433', '127.0.0.1 ', '01.2.3.4', '::ffff:127.0.0.1.1']) {
      assert.throws(() => isForbiddenAddress(value), TypeError, JSON.stringify(value));
    }
    assert.throws(() => isForbiddenAddress(undefined as unknown as string), TypeError);
  });
});

describe('isIpLiteral', () => {
  it('When the value is a bare IPv4 or IPv6 address, then it is an IP literal', () => {
    for (const value of ['127.0.0.1', '93.184.216.34', '::1', '::ffff:7f00:1', '::ffff:127.0.0.1', 'fe80::1%eth0']) {
      assert.equal(isIpLiteral(value), true, value);
    }
  });

  it('When the value is a name, bracketed or not a canonical address, then it is not an IP literal', () => {
    for (const value of ['localhost', 'hooks.example.com', '[::1]', '', '127.1', '2130706433', '256.0.0.1', ':::1']) {
      assert.equal(isIpLiteral(value), false, value);
    }
  });
});

describe('webhookUrlProblem', () => {
  const test = { livemode: false, allowPrivate: false };
  const live = { livemode: true, allowPrivate: false };
  const dev = { livemode: false, allowPrivate: true };
  const PRIVATE = 'url must not point to a private, loopback or link-local address.';

  it('When the URL is a public https or test-mode http URL, then it is accepted', () => {
    assert.equal(webhookUrlProblem('https://hooks.example.com/webhooks', live), undefined);
    assert.equal(webhookUrlProblem('https://hooks.example.com:8443/a?b=c', live), undefined);
    assert.equal(webhookUrlProblem('http://hooks.example.com/webhooks', test), undefined);
    assert.equal(webhookUrlProblem('https://93.184.216.34/hook', live), undefined);
    assert.equal(webhookUrlProblem('http://93.184.216.34:8080/hook', test), undefined);
    assert.equal(webhookUrlProblem('https://[2606:4700:4700::1111]/hook', live), undefined);
    assert.equal(webhookUrlProblem('https://hooks.example.com./hook', live), undefined);
  });

  for (const url of [
    'http://127.0.0.1/hook', 'http://127.0.0.1:8080/hook', 'http://[::1]/hook', 'http://[::ffff:127.0.0.1]/hook', 'http://[::ffff:7f00:1]/',
    'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', 'http://192.168.1.10/', 'http://172.16.0.1/', 'http://100.64.0.1/',
    'http://0.0.0.0/', 'http://[::]/', 'http://[fd00:ec2::254]/', 'http://[fe80::1]/', 'http://[64:ff9b::127.0.0.1]/', 'http://[2002:7f00:1::]/',
    'http://0x7f.1/', 'http://2130706433/', 'http://127.1/', 'http://127.0.0.1./',
  ]) {
    it(`When the URL is ${url}, then it is refused as a private address`, () => {
      assert.equal(webhookUrlProblem(url, test), PRIVATE);
    });
  }

  it('When the host is localhost or a .localhost, .local or .internal name, then it is refused', () => {
    for (const url of ['http://localhost/', 'http://localhost:3000/hook', 'http://LOCALHOST./', 'http://api.localhost/', 'http://printer.local/', 'http://metadata.google.internal/', 'http://db.internal./']) {
      assert.match(webhookUrlProblem(url, test) ?? '', /localhost/, url);
    }
  });

  it('When the host is a bare single-label name, then it is refused', () => {
    for (const url of ['http://intranet/', 'http://merchant-mock:8080/hook', 'http://intranet./']) {
      assert.match(webhookUrlProblem(url, test) ?? '', /single-label/, url);
    }
  });

  it('When the URL is not absolute, then it is refused', () => {
    for (const url of ['', '/hook', 'hooks.example.com/hook', 'not a url', '//hooks.example.com/hook', 'https://']) {
      assert.equal(webhookUrlProblem(url, test), 'url must be an absolute http or https URL.', url);
    }
  });

  it('When the protocol is neither http nor https, then it is refused', () => {
    for (const url of ['ftp://hooks.example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'ws://hooks.example.com/', 'gopher://hooks.example.com/']) {
      assert.equal(webhookUrlProblem(url, test), 'url must use http or https.', url);
    }
  });

  it('When the URL is http in live mode, then it is refused', () => {
    assert.equal(webhookUrlProblem('http://hooks.example.com/hook', live), 'url must use https in live mode.');
    assert.equal(webhookUrlProblem('ftp://hooks.example.com/hook', live), 'url must use https in live mode.');
  });

  it('When the URL is longer than 2048 characters, then it is refused', () => {
    const base = 'https://hooks.example.com/';
    assert.equal(webhookUrlProblem(base + 'a'.repeat(2048 - base.length), live), undefined);
    assert.equal(webhookUrlProblem(base + 'a'.repeat(2049 - base.length), live), 'url must be at most 2048 characters.');
  });

  it('When the URL has a username or password, then it is refused', () => {
    for (const url of ['https://user@hooks.example.com/', 'https://user:pw@hooks.example.com/', 'https://:pw@hooks.example.com/']) {
      assert.equal(webhookUrlProblem(url, live), 'url must not contain a username or password.', url);
    }
  });

  it('When private addresses are allowed, then loopback, private and local hosts are accepted', () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://169.254.169.254/', 'http://10.0.0.1/', 'http://localhost:3000/', 'http://merchant-mock:8080/hook', 'http://printer.local/']) {
      assert.equal(webhookUrlProblem(url, dev), undefined, url);
    }
  });

  it('When private addresses are allowed, then the syntax rules still apply', () => {
    assert.equal(webhookUrlProblem('/hook', dev), 'url must be an absolute http or https URL.');
    assert.equal(webhookUrlProblem('ftp://127.0.0.1/', dev), 'url must use http or https.');
    assert.equal(webhookUrlProblem('http://127.0.0.1/', { livemode: true, allowPrivate: true }), 'url must use https in live mode.');
    assert.equal(webhookUrlProblem('http://u:p@127.0.0.1/', dev), 'url must not contain a username or password.');
    assert.equal(webhookUrlProblem(`http://127.0.0.1/${'a'.repeat(2048)}`, dev), 'url must be at most 2048 characters.');
  });
});
