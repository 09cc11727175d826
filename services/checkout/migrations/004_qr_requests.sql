-- D29: QR code images fetched per client address and minute: the QR routes' flood limit.
CREATE TABLE qr_requests (
  address  text        NOT NULL,
  minute   timestamptz NOT NULL,
  count    integer     NOT NULL,
  PRIMARY KEY (address, minute)
);
CREATE INDEX qr_requests_minute ON qr_requests (minute);
