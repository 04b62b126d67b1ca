/*
 * /static/heed.css: the only styles of the index. No inline style anywhere,
 * so the Content-Security-Policy can say style-src 'self'. Light by
 * default, dark when the reader's system asks for it; focus is always
 * visible for keyboard users.
 */
#include "serve/serve-int.h"

static const char stylesheet[] =
        ":root{--fg:#1b1b1b;--bg:#fdfdfc;--muted:#5a5a5a;--link:#0b57a4;"
        "--line:#d8d8d4;--accent:#2f6f3e;--bar:#4a78a8}\n"
        "@media (prefers-color-scheme:dark){:root{--fg:#e8e8e6;--bg:#161616;"
        "--muted:#a8a8a4;--link:#8ab8ff;--line:#3a3a38;--accent:#7fc08f;"
        "--bar:#6f9fd8}}\n"
        "*{box-sizing:border-box}\n"
        "html{font:100%/1.5 system-ui,-apple-system,'Segoe UI',Roboto,"
        "sans-serif;color:var(--fg);background:var(--bg)}\n"
        "body{margin:0 auto;max-width:60rem;padding:0 1rem 2rem}\n"
        "a{color:var(--link)}\n"
        "a:focus-visible,input:focus-visible,select:focus-visible,"
        "button:focus-visible,summary:focus-visible{outline:3px solid "
        "var(--accent);outline-offset:2px}\n"
        ".skip{position:absolute;left:-999px;top:0}\n"
        ".skip:focus{left:1rem;background:var(--bg);padding:.5rem}\n"
        "header nav ul{list-style:none;display:flex;flex-wrap:wrap;"
        "gap:.25rem 1rem;padding:.75rem 0;margin:0;border-bottom:1px solid "
        "var(--line)}\n"
        "h1{font-size:1.6rem;line-height:1.2;overflow-wrap:anywhere}\n"
        "h2{font-size:1.2rem;margin-top:2rem}\n"
        "form label{display:block;font-weight:600;margin-top:.5rem}\n"
        "input,select,button{font:inherit;padding:.4rem;max-width:100%;"
        "color:inherit;background:var(--bg);border:1px solid var(--muted);"
        "border-radius:.25rem}\n"
        "input[type=search]{width:100%}\n"
        "button{cursor:pointer;margin-top:.5rem}\n"
        ".grid{display:grid;grid-template-columns:repeat(auto-fill,"
        "minmax(12rem,1fr));gap:0 1rem}\n"
        "#results{padding-left:1.5rem}\n"
        ".result{margin:0 0 1.25rem}\n"
        ".result .title{font-size:1.1rem;overflow-wrap:anywhere}\n"
        ".original,.meta,.source{color:var(--muted);font-size:.9rem}\n"
        ".snippet{margin:.25rem 0}\n"
        ".tags{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem .75rem;"
        "padding:0;margin:.25rem 0}\n"
        "dl{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;"
        "gap:.25rem 1rem}\n"
        "dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}\n"
        /* Crawled text may wrap anywhere (a 20,000-character word);
         * heed's own labels and numbers never break inside a word. */
        "bdi{overflow-wrap:anywhere}\n"
        "table{border-collapse:collapse;width:100%;display:block;"
        "overflow-x:auto}\n"
        "th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid "
        "var(--line);vertical-align:top}\n"
        "th,td.num,time{white-space:nowrap}\n"
        "td.num,th.num{text-align:right}\n"
        "th a{color:inherit}th a[aria-current]{text-decoration:none}\n"
        "pre{overflow-x:auto;padding:.5rem;border:1px solid var(--line)}\n"
        "figure.chart{margin:1rem 0}\n"
        "figure.chart svg{width:100%;height:auto;max-height:14rem}\n"
        "figure.chart rect{fill:var(--bar)}\n"
        "figure.chart text{fill:var(--fg);font-size:10px}\n"
        "#withheld,#error{border-left:4px solid var(--accent);"
        "padding-left:.75rem}\n"
        "footer{margin-top:3rem;border-top:1px solid var(--line);"
        "color:var(--muted);font-size:.9rem}\n";

void heed__html_stylesheet(const struct heed__serve_request *req,
                           struct heed__serve_response *resp)
{
	(void)req;
	resp->content_type = "text/css; charset=utf-8";
	resp->cache = true;
	resp->status = heed__buf_add(&resp->body, stylesheet,
	                             sizeof(stylesheet) - 1) == HEED_OK
	                       ? 200
	                       : 500;
}
