-- Which replica holds a PENDING attempt's lease (issue 17). A replica sends an
-- attempt only while it holds the lease for the whole attempt; one whose lease
-- lapsed while the attempt waited in its memory claims it again just before
-- sending, and that claim fails when another replica has taken it since.
ALTER TABLE deliveries ADD COLUMN lease_owner text;
