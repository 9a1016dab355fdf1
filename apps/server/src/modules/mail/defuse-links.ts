/**
 * Free text that other people typed (a meeting title, a person's name) goes into mail sent in
 * Parley's name. Mail clients turn anything that looks like an address into a link (`www.x.com`,
 * `x.com/pay`, `https://…`, `a@b.com`), so such text could make Parley send someone's phishing
 * link. Defused text keeps every word readable but is no longer an address: a dot between a
 * letter or digit and a letter becomes `[.]` and `://` becomes `[:]//` (the "defanged" notation
 * security mail uses). `Release 1.2` and `J. Smith` are left alone; `pay.example.com` is not.
 */
export function defuseLinks(text: string): string {
  return text
    .replace(/:\/\//g, '[:]//')
    .replace(/([\p{L}\p{N}_-])[.\u3002\uff0e\uff61](?=[\p{L}])/gu, '$1[.]');
}
