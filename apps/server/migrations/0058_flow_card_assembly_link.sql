-- 装配领用 (issue 35, genealogy): a bearing's flow card is linked to the ring cards whose pieces it
-- consumed — the rings issued to its order (领料出库, batch = ring card number) allocated to the
-- order's cards first in, first out (modules/production/trace.ts). The genealogy walks these
-- links like split and merge ones: up from a shipped bearing to its rings' heats, down from a heat.
ALTER TABLE flow_card_link DROP CONSTRAINT flow_card_link_kind_check;
ALTER TABLE flow_card_link ADD CONSTRAINT flow_card_link_kind_check CHECK (kind IN ('split', 'merge', 'assembly'));
-- A heat number matched as one of a card's '/'-joined heats (炉号追溯): cards by heat.
CREATE INDEX flow_card_heat_tokens_idx ON flow_card USING gin (string_to_array(heat_no, '/'));
