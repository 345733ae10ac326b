# man pages
dist_man_MANS += man/httop.1
dist_man_MANS += man/httop-trace.5 man/httop-ppc2trace.1
dist_man_MANS += man/httop-diemap.5
