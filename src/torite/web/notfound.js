// The page for a table link that leads nowhere: its words in the reader's language.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  window.Torite.apply();
  window.Torite.bindSwitch(document.getElementById("lang"));
});
