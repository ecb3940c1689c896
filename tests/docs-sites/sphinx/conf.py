project = "List-watch notes"
html_theme = "furo"
html_js_files = ["PLAYGROUND/embed.js"]
