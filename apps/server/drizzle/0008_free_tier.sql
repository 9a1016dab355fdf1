CREATE TABLE "billing_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_key" text NOT NULL,
	"user_id" uuid,
	"email" text NOT NULL,
	"customer_id" text,
	"setup_intent_id" text,
	"payment_method_id" text,
	"card_brand" text,
	"card_last4" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "free_time_clocks" (
	"meeting_id" uuid NOT NULL,
	"clock_key" text NOT NULL,
	"used_ms" bigint DEFAULT 0 NOT NULL,
	"overage_account_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "free_time_clocks_meeting_id_clock_key_pk" PRIMARY KEY("meeting_id","clock_key")
);
--> statement-breakpoint
CREATE TABLE "meeting_billing" (
	"meeting_id" uuid PRIMARY KEY NOT NULL,
	"cover_everyone" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_ledger" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"meeting_id" uuid NOT NULL,
	"public_meeting_id" text NOT NULL,
	"clock_key" text NOT NULL,
	"minute" integer NOT NULL,
	"account_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"provider_item_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD CONSTRAINT "billing_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "free_time_clocks" ADD CONSTRAINT "free_time_clocks_meeting_id_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_billing" ADD CONSTRAINT "meeting_billing_meeting_id_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_ledger" ADD CONSTRAINT "usage_ledger_account_id_billing_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."billing_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_accounts_owner_idx" ON "billing_accounts" USING btree ("owner_key");--> statement-breakpoint
CREATE UNIQUE INDEX "usage_ledger_minute_idx" ON "usage_ledger" USING btree ("meeting_id","clock_key","minute");--> statement-breakpoint
CREATE INDEX "usage_ledger_account_idx" ON "usage_ledger" USING btree ("account_id");