"""The Polaris kit: index-space boards, the two layouts, the composite image, the C/P vocabulary and the paired-task
base class (every Polaris task stands on these)."""
