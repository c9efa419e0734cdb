// The top-three report's Print button.
const button = document.getElementById("print");
if (button) button.addEventListener("click", () => window.print());
