/*
 * Small bar charts as inline SVG ("small inline SVG charts ...
 * drawn by heed, no JavaScript library"): pages crawled per day, views
 * spread. The markup is embedded in the HTML page as is, so it must be
 * well-formed XML with every text escaped, and it carries no style
 * attribute (the Content-Security-Policy forbids inline styles): colours
 * are presentation attributes the stylesheet may override by class.
 *
 * Layout, in user units of the viewBox: a plot PLOT_H high above a label
 * row; bars share the width evenly; heights are scaled to the largest
 * value, and a value above zero is at least one unit high so it shows.
 * Labels go under at most MAX_LABELS evenly spaced bars, so they stay
 * readable however many bars there are.
 */
#include <inttypes.h>

#include "serve/serve-int.h"

#define CHART_W    600
#define TOP        14 /* room for the largest value's text */
#define PLOT_H     120
#define LABEL_H    20
#define CHART_H    (TOP + PLOT_H + LABEL_H)
#define MAX_LABELS 12

static heed_status put_escaped(struct heed_buf *b, const char *s)
{
	return s ? heed__html_escape(b, s, strlen(s)) : HEED_OK;
}

static heed_status open_svg(struct heed_buf *b, const char *title)
{
	heed_status rc = heed__buf_addf(
	        b,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"bars\" "
	        "role=\"img\" viewBox=\"0 0 %d %d\" width=\"%d\" "
	        "height=\"%d\" aria-label=\"",
	        CHART_W, CHART_H, CHART_W, CHART_H);

	if (rc == HEED_OK)
		rc = put_escaped(b, title);
	if (rc == HEED_OK)
		rc = heed__buf_add(b, "\"><title>", 9);
	if (rc == HEED_OK)
		rc = put_escaped(b, title);
	if (rc == HEED_OK)
		rc = heed__buf_add(b, "</title>", 8);
	if (rc == HEED_OK)
		rc = heed__buf_addf(b,
		                    "<line class=\"axis\" x1=\"0\" y1=\"%d\" "
		                    "x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>",
		                    TOP + PLOT_H, CHART_W, TOP + PLOT_H);
	return rc;
}

/* The height of value v in a plot where max is PLOT_H high. */
static int bar_height(int64_t v, int64_t max)
{
	int h;

	if (v <= 0 || max <= 0)
		return 0;
	h = (int)((double)v / (double)max * PLOT_H + 0.5);
	return h < 1 ? 1 : h > PLOT_H ? PLOT_H : h;
}

static heed_status put_bar(struct heed_buf *b, const struct heed__svg_bar *bar,
                           int64_t max, size_t i, size_t n)
{
	/* Bar i spans [x0, x1) of the width, with a gap of a fifth. */
	int x0 = (int)(i * CHART_W / n), x1 = (int)((i + 1) * CHART_W / n);
	int w = (x1 - x0) * 4 / 5, h = bar_height(bar->value, max);
	heed_status rc = heed__buf_addf(
	        b,
	        "<rect class=\"bar\" fill=\"#4a6fa5\" x=\"%d\" y=\"%d\" "
	        "width=\"%d\" height=\"%d\"><title>",
	        x0, TOP + PLOT_H - h, w > 0 ? w : 1, h);

	if (rc == HEED_OK && bar->label) {
		rc = put_escaped(b, bar->label);
		if (rc == HEED_OK)
			rc = heed__buf_add(b, ": ", 2);
	}
	if (rc == HEED_OK)
		rc = heed__buf_addf(b, "%" PRId64 "</title></rect>",
		                    bar->value);
	return rc;
}

static heed_status put_label(struct heed_buf *b,
                             const struct heed__svg_bar *bar, size_t i,
                             size_t n)
{
	int mid = (int)((2 * i + 1) * CHART_W / (2 * n));
	heed_status rc;

	if (!bar->label)
		return HEED_OK;
	rc = heed__buf_addf(b,
	                    "<text class=\"label\" x=\"%d\" y=\"%d\" "
	                    "font-size=\"10\" text-anchor=\"middle\">",
	                    mid, CHART_H - 6);
	if (rc == HEED_OK)
		rc = put_escaped(b, bar->label);
	if (rc == HEED_OK)
		rc = heed__buf_add(b, "</text>", 7);
	return rc;
}

heed_status heed__svg_bars(struct heed_buf *b, const char *title,
                           const struct heed__svg_bar *bars, size_t n)
{
	size_t step = n > MAX_LABELS ? (n + MAX_LABELS - 1) / MAX_LABELS : 1;
	int64_t max = 0;
	heed_status rc = open_svg(b, title);

	for (size_t i = 0; i < n; i++)
		if (bars[i].value > max)
			max = bars[i].value;
	if (rc == HEED_OK && n == 0)
		rc = heed__buf_addf(b,
		                    "<text class=\"empty\" x=\"%d\" y=\"%d\" "
		                    "text-anchor=\"middle\">no data</text>",
		                    CHART_W / 2, TOP + PLOT_H / 2);
	if (rc == HEED_OK && n > 0)
		rc = heed__buf_addf(b,
		                    "<text class=\"max\" x=\"0\" y=\"10\" "
		                    "font-size=\"10\">max %" PRId64 "</text>",
		                    max);
	for (size_t i = 0; i < n && rc == HEED_OK; i++)
		rc = put_bar(b, &bars[i], max, i, n);
	for (size_t i = 0; i < n && rc == HEED_OK; i += step)
		rc = put_label(b, &bars[i], i, n);
	if (rc == HEED_OK)
		rc = heed__buf_add(b, "</svg>", 6);
	return rc;
}
