ALTER TABLE "meetings" ADD COLUMN "live_instance" text;--> statement-breakpoint
ALTER TABLE "meetings" ADD COLUMN "live_heartbeat_at" timestamp with time zone;