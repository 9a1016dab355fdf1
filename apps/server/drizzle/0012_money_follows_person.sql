ALTER TABLE "free_time_clocks" ADD COLUMN "client_address" text;--> statement-breakpoint
CREATE INDEX "free_time_clocks_address_idx" ON "free_time_clocks" USING btree ("meeting_id","client_address");