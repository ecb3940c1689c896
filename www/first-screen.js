// Runs before the body is drawn: the build-time first screen is the default view (English,
// no link parameters), so a link with parameters or a remembered Korean page hides it until
// the page renders its own view (src/ui/first_screen.rs).
try {
  if (location.search.length > 1 || localStorage.getItem('informer-playground.lang') === 'ko') {
    document.documentElement.setAttribute('data-fresh', '');
  }
} catch {
  document.documentElement.setAttribute('data-fresh', '');
}
