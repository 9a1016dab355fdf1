CREATE TABLE "mail_quota" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"recipients" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "mail_quota_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "meetings" ADD COLUMN "keep_content" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_quota" ADD CONSTRAINT "mail_quota_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;