// xmlbench.cc - a C++ program of bench/real/run.sh: parses an XML document
// N times with tinyxml2 and walks it (many small calls into the library).
#include <tinyxml2.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 1000;
    std::string xml = "<root>";
    for (int i = 0; i < 50; i++)
        xml += "<item id=\"" + std::to_string(i) + "\" qty=\"" + std::to_string(i * 7 % 13) + "\">name" +
               std::to_string(i) + "</item>";
    xml += "</root>";
    long total = 0;
    for (int k = 0; k < n; k++) {
        tinyxml2::XMLDocument doc;
        if (doc.Parse(xml.c_str()) != tinyxml2::XML_SUCCESS)
            return 1;
        for (const tinyxml2::XMLElement *e = doc.RootElement()->FirstChildElement("item"); e;
             e = e->NextSiblingElement("item"))
            total += e->IntAttribute("qty") + (e->GetText() ? 1 : 0);
    }
    std::printf("%ld\n", total);
    return 0;
}
