# man pages
dist_man_MANS += man/httop.1
