-- The session service learns that a merchant is suspended from
-- merchant.suspended (and refuses payments on its open sessions). Merchants
-- suspended before that event existed are announced once here, through the
-- outbox, as the suspension itself would now announce them.
INSERT INTO outbox (message_id, routing_key, body)
SELECT announced.id, 'merchant.suspended',
       json_build_object(
         'id', announced.id,
         'type', 'merchant.suspended',
         'version', 1,
         'occurred_at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'correlation_id', announced.id,
         'data', json_build_object('merchant_id', merchants.id)
       )::text
FROM merchants
CROSS JOIN LATERAL (SELECT 'evt_' || substr(md5(merchants.id || random()::text), 1, 24) AS id) AS announced
WHERE merchants.status = 'suspended';
