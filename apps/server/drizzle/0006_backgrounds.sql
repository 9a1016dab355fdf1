CREATE TABLE "background_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"background_type" text DEFAULT 'none' NOT NULL,
	"blur_intensity" integer DEFAULT 5 NOT NULL,
	"selected_background_id" text,
	"custom_background_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_backgrounds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"storage_key" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meeting_backgrounds" (
	"meeting_id" uuid NOT NULL,
	"participant_id" text NOT NULL,
	"background_type" text NOT NULL,
	"background_id" text,
	"blur_intensity" integer NOT NULL,
	"custom_background_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meeting_backgrounds_meeting_id_participant_id_pk" PRIMARY KEY("meeting_id","participant_id")
);
--> statement-breakpoint
ALTER TABLE "background_preferences" ADD CONSTRAINT "background_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "background_preferences" ADD CONSTRAINT "background_preferences_custom_background_id_custom_backgrounds_id_fk" FOREIGN KEY ("custom_background_id") REFERENCES "public"."custom_backgrounds"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_backgrounds" ADD CONSTRAINT "custom_backgrounds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_backgrounds" ADD CONSTRAINT "meeting_backgrounds_meeting_id_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_backgrounds" ADD CONSTRAINT "meeting_backgrounds_custom_background_id_custom_backgrounds_id_fk" FOREIGN KEY ("custom_background_id") REFERENCES "public"."custom_backgrounds"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "custom_backgrounds_user_idx" ON "custom_backgrounds" USING btree ("user_id");