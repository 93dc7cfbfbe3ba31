#!/usr/bin/perl
# Turns the tokens scripts/ascii-help.sh spelled characters beyond ASCII as
# (UNICHARxE9x) into groff's glyph escapes (\[u00E9]), in the man pages given:
# `man` prints them as the characters they stand for. A terminal that cannot
# show one (a C locale: groff's ascii device has no kana) gets its ASCII
# spelling from iconv (- for –, e for é, ? for ショ), defined at the top of the
# page for that case only, instead of a warning from troff.
use strict;
use warnings;

for my $page (@ARGV) {
    open(my $in, '<', $page) or die "$page: $!\n";
    my $text = do { local $/; <$in> };
    close($in);
    my %glyphs;
    $glyphs{$1} = 1 while $text =~ /UNICHARx([0-9A-F]{4,6})x/g;
    my $fallbacks = '';
    for my $hex (sort keys %glyphs) {
        my $character = chr(hex($hex));
        utf8::encode($character);
        open(my $iconv, '-|', 'sh', '-c', 'printf %s "$1" | iconv -f UTF-8 -t ASCII//TRANSLIT 2>/dev/null', 'iconv', $character)
            or die "iconv: $!\n";
        my $ascii = do { local $/; <$iconv> } // '';
        close($iconv);
        $ascii = '?' if $ascii eq '' || $ascii =~ /[\\\n]/;
        $fallbacks .= ".if !c\\[u$hex] .char \\[u$hex] $ascii\n";
    }
    $text =~ s/UNICHARx([0-9A-F]{4,6})x/\\[u$1]/g;
    # After the comment lines that open the page, before its first macro.
    $text =~ s/\A((?:\.\\".*\n)*)/$1$fallbacks/;
    open(my $out, '>', "$page.new") or die "$page.new: $!\n";
    print $out $text;
    close($out) or die "$page.new: $!\n";
    rename("$page.new", $page) or die "$page: $!\n";
}
